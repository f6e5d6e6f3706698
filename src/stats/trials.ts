import { checkInteger } from './check.ts'

/**
 * Unbiased pass@k (Chen et al. 2021): the chance that at least one of k trials drawn without replacement from
 * n trials with c passes passes, 1 − C(n−c, k) / C(n, k), computed as a product so it never overflows.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkInteger('passAtK', 'n', n, 1)
  checkInteger('passAtK', 'c', c, 0, n)
  checkInteger('passAtK', 'k', k, 1, n)
  if (n - c < k) return 1
  let allFail = 1
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i
  return 1 - allFail
}

/**
 * Unbiased pass^k (Yao et al. 2024, τ-bench): the chance that k trials drawn without replacement from n trials with
 * c passes all pass, C(c, k) / C(n, k), computed as a product so it never overflows. The plug-in (c / n)^k
 * overestimates it: at p = ½ over 3 trials with k = 3 it averages 0.25 where the truth is 0.125.
 */
export function passHatK(n: number, c: number, k: number): number {
  checkInteger('passHatK', 'n', n, 1)
  checkInteger('passHatK', 'c', c, 0, n)
  checkInteger('passHatK', 'k', k, 1, n)
  if (c < k) return 0
  let allPass = 1
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i)
  return allPass
}

/** A case is flaky when some, but not all, of its trials passed. */
export function isFlaky(passes: number, trials: number): boolean {
  return passes > 0 && passes < trials
}

/** Per-case statistics over its trials. */
export interface TrialStats {
  passes: number
  trials: number
  /** passes / trials */
  passRate: number
  /** the k of pass@k and pass^k */
  k: number
  passAtK: number
  passHatK: number
  flaky: boolean
}

/** Summarizes one case's trials; `k` defaults to the number of trials. */
export function summarizeTrials(passes: number, trials: number, k = trials): TrialStats {
  return {
    passes,
    trials,
    passRate: passes / trials,
    k,
    passAtK: passAtK(trials, passes, k),
    passHatK: passHatK(trials, passes, k),
    flaky: isFlaky(passes, trials),
  }
}
