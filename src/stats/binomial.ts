import { checkInteger } from './check.ts'

/** An exact binomial test of H0: p = ½. */
export interface BinomialTestResult {
  /** two-sided p-value: min(1, 2 × the smaller tail), the usual convention for a symmetric null */
  pValue: number
  /** one-sided p-value for "more successes than failures": P(X ≥ successes) under H0 */
  pGreater: number
  /** one-sided p-value for "fewer successes than failures": P(X ≤ successes) under H0 */
  pLess: number
}

/** Exact binomial test that `successes` out of `trials` is consistent with a fair coin. */
export function binomialTest(successes: number, trials: number): BinomialTestResult {
  checkInteger('binomialTest', 'trials', trials, 0)
  checkInteger('binomialTest', 'successes', successes, 0, trials)
  const pLess = lowerTail(successes, trials)
  const pGreater = lowerTail(trials - successes, trials)
  return { pValue: Math.min(1, 2 * Math.min(pLess, pGreater)), pGreater, pLess }
}

/** The exact McNemar test's counts of discordant pairs, and its p-values. */
export interface McNemarResult extends BinomialTestResult {
  /** pairs that passed in the first run only */
  b: number
  /** pairs that passed in the second run only */
  c: number
}

/**
 * Exact McNemar test on the discordant pairs of two paired pass/fail runs: a binomial test of b out of b + c,
 * e.g. b = 1, c = 9 → p = 0.0215. With the baseline first, `pGreater` is the one-sided p-value for a regression.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  checkInteger('mcnemarExact', 'b', b, 0)
  checkInteger('mcnemarExact', 'c', c, 0)
  return { b, c, ...binomialTest(b, b + c) }
}

/** A sign test's counts and p-values. */
export interface SignTestResult extends BinomialTestResult {
  positive: number
  negative: number
  /** zero differences, which carry no sign and are left out */
  ties: number
}

/**
 * Sign test on paired differences (e.g. current − baseline pass rate per case): an exact binomial test of the
 * positive differences among the non-zero ones. `pLess` is the one-sided p-value for a downward shift.
 */
export function signTest(differences: readonly number[]): SignTestResult {
  let positive = 0
  let negative = 0
  for (const difference of differences) {
    if (Number.isNaN(difference)) throw new RangeError('`signTest`: differences must be numbers, got NaN.')
    if (difference > 0) positive++
    else if (difference < 0) negative++
  }
  const ties = differences.length - positive - negative
  return { positive, negative, ties, ...binomialTest(positive, positive + negative) }
}

function lowerTail(k: number, n: number): number {
  // Σ C(n, i) / 2ⁿ for i ≤ k, term by term in log space so large n neither overflows nor underflows the sum
  let logTerm = -n * Math.LN2
  let sum = Math.exp(logTerm)
  for (let i = 0; i < k; i++) {
    logTerm += Math.log((n - i) / (i + 1))
    sum += Math.exp(logTerm)
  }
  return Math.min(1, sum)
}
