import { checkInteger } from './check.ts'
import { hypergeometric } from './hypergeometric.ts'
import { normalCdf } from './normal.ts'
import { seededRandom } from './random.ts'

/** One case seen in two runs: its weight and each run's passes over trials with a verdict. */
export interface PairedRate {
  /** the case's weight; 0 leaves it out */
  weight: number
  baselinePasses: number
  baselineTrials: number
  currentPasses: number
  currentTrials: number
}

/** Options of `pairedRateTest`. Results depend only on the rates and these options. */
export interface PairedRateTestOptions {
  /** Monte Carlo draws when the exact null distribution has too many distinct values @default 10000 */
  resamples?: number
  /** PRNG seed of the Monte Carlo draws @default 1 */
  seed?: number
}

/** The weighted mean change of per-case pass rates, and how surprising it is when nothing changed. */
export interface PairedRateTest {
  /** Σ w · baseline pass rate / Σ w */
  baselineRate: number
  /** Σ w · current pass rate / Σ w */
  currentRate: number
  /** currentRate − baselineRate */
  meanDifference: number
  /** one-sided p-value of "no change" against "got worse": P(T ≤ observed) under the null */
  pRegression: number
  /** two-sided p-value: P(|T| ≥ |observed|) under the null, whose mean is 0 */
  pValue: number
  /**
   * how the null distribution was found: `exact` (enumerated), the number of Monte Carlo draws, or `normal` (its
   * normal approximation, for more informative cases than `NORMAL_ABOVE`, where it is accurate and draws are slow)
   */
  resamples: number | 'exact' | 'normal'
  /** cases whose trials mix passes and failures, the only ones whose split between the runs can vary */
  informative: number
}

/** distinct values of the enumerated null distribution before falling back to Monte Carlo */
const EXACT_LIMIT = 20_000
/** informative cases above which the null distribution is taken as normal (a sum of that many independent terms) */
const NORMAL_ABOVE = 2000
/** values closer than this count as ties (sums of the same coefficients in another order) */
const TIE = 1e-9

/**
 * Stratified permutation test of the weighted mean pass-rate difference, paired by case. Under "nothing changed"
 * a case's trials are exchangeable between the runs, so given its total passes, the passes the current run got
 * are hypergeometric, whatever the case's own pass rate and however many trials each run made (a baseline at 10
 * trials against a run at 3 is fine). The statistic T = Σ wᵢ (current rateᵢ − baseline rateᵢ) / Σ w is compared
 * with its exact conditional distribution, enumerated when it has few distinct values (equal weights and trial
 * counts) and drawn by seeded Monte Carlo otherwise. With one trial a side and equal weights it is the exact
 * McNemar test; the per-case form is Fisher's exact test. Exact conditional tests never exceed their level α.
 */
export function pairedRateTest(
  rates: readonly PairedRate[],
  options: PairedRateTestOptions = {},
): PairedRateTest | null {
  const { resamples = 10_000, seed = 1 } = options
  checkInteger('pairedRateTest', 'resamples', resamples, 1)
  for (const rate of rates) checkRate(rate)
  const paired = rates.filter((rate) => rate.weight > 0 && rate.baselineTrials > 0 && rate.currentTrials > 0)
  const totalWeight = paired.reduce((sum, rate) => sum + rate.weight, 0)
  if (totalWeight === 0) return null
  let baselineSum = 0
  let currentSum = 0
  const strata: Stratum[] = []
  for (const { weight, baselinePasses, baselineTrials, currentPasses, currentTrials } of paired) {
    const share = weight / totalWeight
    baselineSum += (weight * baselinePasses) / baselineTrials
    currentSum += (weight * currentPasses) / currentTrials
    const passes = baselinePasses + currentPasses
    const population = baselineTrials + currentTrials
    // a case that passed (or failed) every trial splits one way only: it adds nothing to T and no variance
    if (passes === 0 || passes === population) continue
    const { low, pmf } = hypergeometric(population, passes, currentTrials)
    // each pass that lands in the current run moves T by share × (1/n꜀ + 1/n_b)
    strata.push({
      coefficient: share * (1 / currentTrials + 1 / baselineTrials),
      observed: currentPasses,
      low,
      pmf,
    })
  }
  // E[T] = 0 under the null, so T itself is the observed value less the strata's means
  let observed = 0
  let center = 0
  for (const stratum of strata) {
    observed += stratum.coefficient * stratum.observed
    center += stratum.coefficient * meanOf(stratum)
  }
  const deviation = observed - center
  const tails =
    strata.length > NORMAL_ABOVE
      ? normalTails(strata, deviation)
      : (exactTails(strata, deviation, center) ?? sampledTails(strata, deviation, center, resamples, seed))
  const baselineRate = baselineSum / totalWeight
  const currentRate = currentSum / totalWeight
  return {
    baselineRate,
    currentRate,
    meanDifference: currentRate - baselineRate,
    pRegression: tails.lower,
    pValue: tails.twoSided,
    resamples: tails.resamples,
    informative: strata.length,
  }
}

interface Stratum {
  coefficient: number
  observed: number
  low: number
  pmf: Float64Array
}

interface Tails {
  lower: number
  twoSided: number
  resamples: PairedRateTest['resamples']
}

function normalTails(strata: readonly Stratum[], deviation: number): Tails {
  let variance = 0
  for (const stratum of strata) {
    const mean = meanOf(stratum)
    let second = 0
    stratum.pmf.forEach((chance, i) => (second += chance * (stratum.low + i - mean) ** 2))
    variance += stratum.coefficient ** 2 * second
  }
  const z = deviation / Math.sqrt(variance)
  return { lower: normalCdf(z), twoSided: Math.min(1, 2 * normalCdf(-Math.abs(z))), resamples: 'normal' }
}

function exactTails(strata: readonly Stratum[], deviation: number, center: number): Tails | null {
  if (distinctSumsBound(strata) > EXACT_LIMIT) return null
  let distribution = new Map<number, number>([[0, 1]])
  for (const { coefficient, low, pmf } of strata) {
    const next = new Map<number, number>()
    for (const [value, chance] of distribution) {
      for (let i = 0; i < pmf.length; i++) {
        const key = round(value + coefficient * (low + i))
        next.set(key, (next.get(key) ?? 0) + chance * (pmf[i] ?? 0))
      }
    }
    distribution = next
  }
  let lower = 0
  let twoSided = 0
  let total = 0
  for (const [value, chance] of distribution) {
    const moved = value - center
    total += chance
    if (moved <= deviation + TIE) lower += chance
    if (Math.abs(moved) >= Math.abs(deviation) - TIE) twoSided += chance
  }
  // divided by the summed mass, so rounding in the products never leaves a whole tail short of 1
  return { lower: Math.min(1, lower / total), twoSided: Math.min(1, twoSided / total), resamples: 'exact' }
}

function sampledTails(
  strata: readonly Stratum[],
  deviation: number,
  center: number,
  resamples: number,
  seed: number,
): Tails {
  const random = seededRandom(seed)
  const cumulative = strata.map(({ pmf }) => {
    const sums = new Float64Array(pmf.length)
    let sum = 0
    pmf.forEach((chance, i) => (sums[i] = sum += chance))
    return sums
  })
  let lower = 0
  let twoSided = 0
  for (let r = 0; r < resamples; r++) {
    let value = 0
    for (let s = 0; s < strata.length; s++) {
      const { coefficient, low } = strata[s] as Stratum
      const sums = cumulative[s] as Float64Array
      const u = random() * (sums[sums.length - 1] ?? 1)
      let i = 0
      while (i < sums.length - 1 && (sums[i] ?? 0) <= u) i++
      value += coefficient * (low + i)
    }
    const moved = value - center
    if (moved <= deviation + TIE) lower++
    if (Math.abs(moved) >= Math.abs(deviation) - TIE) twoSided++
  }
  // (1 + count) / (1 + draws): the observed table counts as one draw, so the p-value is never 0 (Phipson & Smyth 2010)
  return { lower: (1 + lower) / (1 + resamples), twoSided: (1 + twoSided) / (1 + resamples), resamples }
}

/** at most this many values: cases with the same coefficient add up on one lattice, the groups multiply */
function distinctSumsBound(strata: readonly Stratum[]): number {
  const spans = new Map<number, number>()
  for (const { coefficient, pmf } of strata) {
    const key = round(coefficient)
    spans.set(key, (spans.get(key) ?? 0) + pmf.length - 1)
  }
  let bound = 1
  for (const span of spans.values()) bound *= span + 1
  return bound
}

function meanOf({ low, pmf }: Stratum): number {
  let mean = 0
  pmf.forEach((chance, i) => (mean += chance * (low + i)))
  return mean
}

function round(value: number): number {
  return Math.round(value / TIE) * TIE
}

function checkRate(rate: PairedRate): void {
  if (!(rate.weight >= 0) || !Number.isFinite(rate.weight)) {
    throw new RangeError(`\`pairedRateTest\`: \`weight\` must be a finite number ≥ 0, got ${rate.weight}.`)
  }
  checkInteger('pairedRateTest', 'baselineTrials', rate.baselineTrials, 0)
  checkInteger('pairedRateTest', 'currentTrials', rate.currentTrials, 0)
  checkInteger('pairedRateTest', 'baselinePasses', rate.baselinePasses, 0, rate.baselineTrials)
  checkInteger('pairedRateTest', 'currentPasses', rate.currentPasses, 0, rate.currentTrials)
}
