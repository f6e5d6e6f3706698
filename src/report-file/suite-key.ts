/** A suite's run under one variant as a map key: the suite's name, and the variant's when there is one. */
export function suiteKey(suite: string, variant: string | undefined): string {
  return variant === undefined ? suite : `${suite}\u0000${variant}`
}
