import type { BootstrapOptions } from '../stats/bootstrap.ts'
import type { Interval } from '../stats/interval.ts'
import type { Percentiles } from '../stats/percentile.ts'
import type { CaseStatus, CriticalSetting, KnownFailure } from './summary.ts'

/**
 * How a case moved since the baseline. `regressed` / `improved` / `unchanged` compare pass rates of the same
 * input; `input-changed` cases are not comparable; `unscored` cases had no trial with a verdict on one side
 * (errored or skipped), so they are kept apart from quality changes.
 */
export type Transition =
  'regressed' | 'improved' | 'unchanged' | 'new' | 'removed' | 'input-changed' | 'unscored'

/** One side (baseline or current) of a compared case. */
export interface CaseSide {
  status: CaseStatus
  passes: number
  trials: number
  /** passes / trials; null when no trial reached a verdict */
  passRate: number | null
  score?: number
  latencyMs: number
  costUsd: number | null
}

/** One case in a comparison. */
export interface CaseComparison {
  id: string
  transition: Transition
  /** the current run's tags; the baseline's for removed cases */
  tags: readonly string[]
  baseline: CaseSide | null
  current: CaseSide | null
  /** current − baseline pass rate, for cases both runs scored on the same input */
  passRateDelta: number | null
  /** the case's weight in the paired test (the current run's; the baseline's for removed cases) @default 1 */
  weight?: number
  /** the case file's `critical:` setting, when set */
  critical?: CriticalSetting
  /** the case file's `expect_fail:`, when set */
  expectFail?: KnownFailure
}

/**
 * The paired test over cases both runs scored on the same input: each case's pass rate over its trials, weighted by
 * its weight, set against the baseline's; the runs may have made different numbers of trials.
 */
export interface PairedComparison {
  /**
   * `stratified-permutation`: the exact conditional (permutation) test of the weighted mean pass-rate difference,
   * stratified by case (see `pairedRateTest`). Reports written before it hold `mcnemar-exact` or `sign-test`.
   */
  method: 'stratified-permutation'
  /** how its null distribution was found: `exact`, `normal` (thousands of cases), or the Monte Carlo draws */
  nullDistribution: 'exact' | 'normal' | number
  /** number of paired cases (weight 0 included) */
  cases: number
  /** paired cases whose pass rate fell */
  regressions: number
  /** paired cases whose pass rate rose */
  improvements: number
  /** paired cases whose pass rate stayed */
  ties: number
  /** weighted mean pass rate of the paired cases in the baseline */
  baselineAccuracy: number
  /** weighted mean pass rate of the paired cases now */
  currentAccuracy: number
  /** currentAccuracy − baselineAccuracy */
  meanDifference: number
  /** 95% paired-bootstrap interval of `meanDifference` (cases resampled with their weights) */
  interval: Interval
  /** two-sided p-value of "no change" */
  pValue: number
  /** one-sided p-value of "no change" against "got worse"; the gate fails when it is below α */
  pRegression: number
  /** what the test can see, so a pass says how small a drop could have hidden in it */
  power: PowerSummary
}

/** The smallest drop the paired test catches at 80% power, with what it depends on. */
export interface PowerSummary {
  /** the one-sided significance level used */
  alpha: number
  /** 0.8 */
  power: number
  /**
   * the smallest drop of the weighted accuracy, spread over the paired cases, caught with probability `power`; from
   * the cases' observed pass/fail variance and trials (`minimumDetectableDrop`). Null when no case carries weight.
   */
  minimumDetectableDrop: number | null
  /** the median trials per paired case in the baseline and now */
  baselineTrials: number
  currentTrials: number
}

/** The current run set against its baseline. */
export interface Comparison {
  suite: string
  baselineCreatedAt: string
  /** age of the baseline at comparison time, in days */
  baselineAgeDays: number
  /** every case of either run, sorted by id */
  cases: CaseComparison[]
  counts: Record<Transition, number>
  /** weighted mean pass rate over each run's scored cases, and current − baseline */
  accuracy: { baseline: number | null; current: number | null; delta: number | null }
  /** null when no case is paired */
  paired: PairedComparison | null
  /** per-case mean latencies of the paired cases; ratios are current / baseline, null when not computable */
  latency: {
    baseline: Percentiles | null
    current: Percentiles | null
    p50Ratio: number | null
    p95Ratio: number | null
  }
  /** summed per-trial cost of the paired cases; null when any of them has an unknown cost */
  cost: { baselineUsd: number | null; currentUsd: number | null; ratio: number | null }
  /** reasons the comparison may mislead: changed target, model or judges, a stale baseline, unpaired cases */
  warnings: string[]
}

/** Options of `compareToBaseline`. */
export interface CompareOptions {
  /** warn when the baseline is older than this many days (the gate's `max_baseline_age_days`) */
  maxBaselineAgeDays?: number | undefined
  /** the one-sided significance level the minimum detectable drop is given at @default 0.05 */
  alpha?: number | undefined
  /** the time the age is measured at @default new Date() */
  now?: Date
  /** settings of the paired bootstrap @default { resamples: 2000, confidence: 0.95, seed: 1 } */
  bootstrap?: BootstrapOptions
}
