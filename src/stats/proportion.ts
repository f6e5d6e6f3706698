import { checkProbability } from './check.ts'
import type { Interval } from './interval.ts'
import { normalQuantile } from './normal.ts'

/** Options shared by the interval estimators. */
export interface IntervalOptions {
  /** two-sided coverage of the interval @default 0.95 */
  confidence?: number
}

/**
 * Wilson score interval for a proportion `successes / n`, e.g. 8 of 10 → [0.490, 0.943]. Unlike the normal
 * approximation it stays inside [0, 1] and keeps its coverage for small n and rates near 0 or 1. `n` may be
 * fractional (an effective sample size); n = 0 gives [0, 1].
 */
export function wilsonInterval(successes: number, n: number, options: IntervalOptions = {}): Interval {
  if (!(n >= 0) || !(successes >= 0) || successes > n) {
    throw new RangeError(`\`wilsonInterval\`: need 0 ≤ successes ≤ n, got ${successes} of ${n}.`)
  }
  if (n === 0) return { low: 0, high: 1 }
  const z = zFor(options.confidence ?? 0.95)
  const p = successes / n
  const z2n = (z * z) / n
  const center = (p + z2n / 2) / (1 + z2n)
  const halfWidth = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))
  // clamp so rounding never puts the point estimate outside its own interval
  return {
    low: Math.max(0, Math.min(p, center - halfWidth)),
    high: Math.min(1, Math.max(p, center + halfWidth)),
  }
}

/** One case's share of a weighted accuracy. */
export interface WeightedRate {
  /** non-negative; a weight of 0 leaves the case out */
  weight: number
  /** fraction of the case's trials that passed, 0..1 */
  passRate: number
}

/** A weighted mean pass rate with its uncertainty. */
export interface WeightedAccuracy {
  /** Σ weight × passRate / Σ weight */
  accuracy: number
  /** √(accuracy × (1 − accuracy) / effectiveSampleSize) */
  standardError: number
  interval: Interval
  /** Kish's effective number of cases, (Σw)² / Σw²; equals the case count when all weights are equal */
  effectiveSampleSize: number
  /** the cases counted, weight 0 included */
  cases: number
}

/** Weighted accuracy over cases, read once (an array or a generator); null when no case carries weight. */
export function weightedAccuracy(
  rates: Iterable<WeightedRate>,
  options: IntervalOptions = {},
): WeightedAccuracy | null {
  const tally = new WeightedAccuracyTally()
  for (const { weight, passRate } of rates) tally.add(weight, passRate)
  return tally.result(options)
}

/** Weighted accuracy gathered one case at a time, in constant memory. */
export class WeightedAccuracyTally {
  // weights are scaled by the largest seen so far, so tiny or huge weights neither underflow nor overflow when
  // squared: a larger weight rescales the sums before it is added
  #largest = 0
  #total = 0
  #totalSquared = 0
  #passed = 0
  #cases = 0

  add(weight: number, passRate: number): void {
    if (!(weight >= 0) || !(passRate >= 0 && passRate <= 1)) {
      throw new RangeError(
        `\`weightedAccuracy\`: need weight ≥ 0 and 0 ≤ passRate ≤ 1, got weight ${weight} and passRate ${passRate}.`,
      )
    }
    if (weight > this.#largest) {
      const ratio = this.#largest / weight
      this.#total *= ratio
      this.#totalSquared *= ratio * ratio
      this.#passed *= ratio
      this.#largest = weight
    }
    const scaled = this.#largest === 0 ? 0 : weight / this.#largest
    this.#total += scaled
    this.#totalSquared += scaled * scaled
    this.#passed += scaled * passRate
    this.#cases++
  }

  /** null when no case carried weight */
  result(options: IntervalOptions = {}): WeightedAccuracy | null {
    const total = this.#total
    if (total === 0) return null
    const accuracy = Math.min(1, this.#passed / total)
    // Wilson on Kish's effective n: deterministic, bounded to [0, 1], and honest about unequal weights (cases, not trials, are the unit)
    const effectiveSampleSize = (total * total) / this.#totalSquared
    const { low, high } = wilsonInterval(
      Math.min(accuracy * effectiveSampleSize, effectiveSampleSize),
      effectiveSampleSize,
      options,
    )
    // (accuracy × n) / n can round one float step away from accuracy: keep the estimate inside its interval
    return {
      accuracy,
      standardError: Math.sqrt((accuracy * (1 - accuracy)) / effectiveSampleSize),
      interval: { low: Math.min(low, accuracy), high: Math.max(high, accuracy) },
      effectiveSampleSize,
      cases: this.#cases,
    }
  }
}

function zFor(confidence: number): number {
  checkProbability('wilsonInterval', 'confidence', confidence)
  return normalQuantile(1 - (1 - confidence) / 2)
}
