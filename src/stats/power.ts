import { checkInteger, checkProbability } from './check.ts'
import { normalQuantile } from './normal.ts'

/** One case as a power calculation sees it. */
export interface PowerCase {
  /** the case's weight; 0 leaves it out */
  weight: number
  /** its pass/fail variance p(1 − p), e.g. from `bernoulliVariance` */
  variance: number
  /** trials of the baseline (the reference side) */
  baselineTrials: number
  /** trials of the run compared with it */
  currentTrials: number
}

/** Options of the power calculations. */
export interface PowerOptions {
  /** one-sided significance level of the gate's test @default 0.05 */
  alpha?: number
  /** the chance of catching a drop of the returned size @default 0.8 */
  power?: number
}

/**
 * The smallest drop of the weighted mean pass rate that a one-sided test at `alpha` catches with probability
 * `power`, for a drop spread over the cases: (z₁₋α + z_power) · SE, where SE² = Σ wᵢ² σᵢ² (1/n_bᵢ + 1/n꜀ᵢ) / (Σw)²
 * is the variance of the paired difference of mean pass rates (Miller 2024, "Adding Error Bars to Evals", §5 power
 * analysis: paired questions cancel the between-question variance, and resampling divides the within-question
 * variance σ² by the number of trials). Null when no case carries weight.
 */
export function minimumDetectableDrop(
  cases: readonly PowerCase[],
  options: PowerOptions = {},
): number | null {
  const { alpha = 0.05, power = 0.8 } = options
  checkProbability('minimumDetectableDrop', 'alpha', alpha)
  checkProbability('minimumDetectableDrop', 'power', power)
  let total = 0
  let variance = 0
  for (const entry of cases) {
    checkCase(entry)
    if (entry.weight === 0) continue
    total += entry.weight
    variance += entry.weight ** 2 * entry.variance * (1 / entry.baselineTrials + 1 / entry.currentTrials)
  }
  if (total === 0) return null
  const z = normalQuantile(1 - alpha) + normalQuantile(power)
  return Math.min(1, (z * Math.sqrt(variance)) / total)
}

/**
 * A case's pass/fail variance p(1 − p) from its trials. When they disagree, the unbiased c (n − c) / (n (n − 1)),
 * which averages to the true variance over many cases. When they all agree the case has shown no noise yet, not
 * that it has none, so p is taken one half-trial from the edge, (c + ½) / (n + 1): 10 passes of 10 give p = 0.955
 * and a variance of 0.043 rather than 0, which would promise the gate sees any drop at all. Null without a trial.
 */
export function passFailVariance(passes: number, trials: number): number | null {
  checkInteger('passFailVariance', 'trials', trials, 0)
  checkInteger('passFailVariance', 'passes', passes, 0, trials)
  if (trials === 0) return null
  if (passes > 0 && passes < trials) return (passes * (trials - passes)) / (trials * (trials - 1))
  const p = (passes + 0.5) / (trials + 1)
  return p * (1 - p)
}

/**
 * The fewest trials per run (1 to `maxTrials`) whose `minimumDetectableDrop` is at most `drop`; `sameTrials`
 * gives the baseline as many trials as the run, otherwise each case keeps its `baselineTrials`. Null when even
 * `maxTrials` cannot see the drop (with a fixed baseline, the baseline's own noise sets a floor).
 */
export function trialsToDetect(
  cases: readonly Omit<PowerCase, 'currentTrials'>[],
  drop: number,
  options: PowerOptions & { sameTrials?: boolean; maxTrials?: number } = {},
): number | null {
  const { sameTrials = false, maxTrials = 1000 } = options
  if (!(drop > 0 && drop <= 1)) {
    throw new RangeError(`\`trialsToDetect\`: \`drop\` must be between 0 (exclusive) and 1, got ${drop}.`)
  }
  for (let trials = 1; trials <= maxTrials; trials++) {
    const mde = minimumDetectableDrop(
      cases.map((entry) => ({
        ...entry,
        baselineTrials: sameTrials ? trials : entry.baselineTrials,
        currentTrials: trials,
      })),
      options,
    )
    if (mde !== null && mde <= drop) return trials
  }
  return null
}

function checkCase(entry: PowerCase): void {
  if (
    !(entry.weight >= 0 && Number.isFinite(entry.weight)) ||
    !(entry.variance >= 0 && entry.variance <= 0.5)
  ) {
    throw new RangeError(
      `\`minimumDetectableDrop\`: need a finite weight ≥ 0 and 0 ≤ variance ≤ 0.5, got weight ${entry.weight} and variance ${entry.variance}.`,
    )
  }
  checkInteger('minimumDetectableDrop', 'baselineTrials', entry.baselineTrials, 1)
  checkInteger('minimumDetectableDrop', 'currentTrials', entry.currentTrials, 1)
}
