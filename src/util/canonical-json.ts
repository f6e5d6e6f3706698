/** JSON with object keys sorted, so equal values always serialize the same way; `undefined` becomes `null`. */
export function canonicalJson(value: unknown): string {
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item
    const record = item as Record<string, unknown>
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    )
  }) as string | undefined
  return json ?? 'null'
}
