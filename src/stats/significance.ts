/**
 * Whether a p-value rejects at level α: p < α, with p within a relative 1e-9 of α taken as α itself. Exact
 * p-values are sums of products that round either way: Fisher's 1/20 comes out as 0.04999999999999999, which
 * must not pass for a rejection at α = 0.05.
 */
export function isSignificant(p: number, alpha: number): boolean {
  return p < alpha * (1 - 1e-9)
}
