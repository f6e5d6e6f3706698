import { checkInteger, checkProbability } from './check.ts'
import type { Interval } from './interval.ts'
import { quantileOfSorted } from './percentile.ts'
import { seededRandom } from './random.ts'

/** Options of the bootstrap estimators. Results depend only on the values and these options. */
export interface BootstrapOptions {
  /** number of resamples @default 2000 */
  resamples?: number
  /** two-sided coverage of the percentile interval @default 0.95 */
  confidence?: number
  /** PRNG seed; the same seed gives the same interval @default 1 */
  seed?: number
}

/** A sample mean with its bootstrap uncertainty. */
export interface BootstrapResult {
  mean: number
  /** standard deviation of the resampled means */
  standardError: number
  /** percentile bootstrap interval */
  interval: Interval
}

/** Bootstrap (percentile) interval for the mean of `values`, e.g. mean judge scores. */
export function bootstrapMean(values: ArrayLike<number>, options: BootstrapOptions = {}): BootstrapResult {
  const { resamples = 2000, confidence = 0.95, seed = 1 } = options
  if (values.length === 0) throw new RangeError('`bootstrapMean`: needs at least one value, got none.')
  checkInteger('bootstrapMean', 'resamples', resamples, 1)
  checkProbability('bootstrapMean', 'confidence', confidence)
  const n = values.length
  const first = values[0] as number
  // every resample of a constant sample is that sample: skip n × resamples draws (all-pass suites, 100k cases)
  let constant = true
  for (let i = 1; i < n && constant; i++) constant = values[i] === first
  if (constant) {
    return { mean: first, standardError: 0, interval: { low: first, high: first } }
  }
  const random = seededRandom(seed)
  const means = new Float64Array(resamples)
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)] ?? 0
    means[r] = sum / n
  }
  means.sort()
  let total = 0
  for (let i = 0; i < n; i++) total += values[i] as number
  const mean = total / n
  const meanOfMeans = means.reduce((sum, value) => sum + value, 0) / resamples
  const variance =
    means.reduce((sum, value) => sum + (value - meanOfMeans) ** 2, 0) / Math.max(1, resamples - 1)
  const tail = (1 - confidence) / 2
  return {
    mean,
    standardError: Math.sqrt(variance),
    interval: { low: quantileOfSorted(means, tail), high: quantileOfSorted(means, 1 - tail) },
  }
}

/**
 * Paired bootstrap of the mean difference `current[i] − baseline[i]`, resampling pairs (cases) together so
 * per-case difficulty cancels out.
 */
export function pairedBootstrap(
  baseline: readonly number[],
  current: readonly number[],
  options: BootstrapOptions = {},
): BootstrapResult {
  if (baseline.length !== current.length) {
    throw new RangeError(
      `\`pairedBootstrap\`: both samples must pair up, got ${baseline.length} baseline and ${current.length} current values.`,
    )
  }
  return bootstrapMean(
    current.map((value, i) => value - (baseline[i] ?? 0)),
    options,
  )
}

/**
 * Bootstrap (percentile) interval for the weighted mean Σ wᵢ vᵢ / Σ w, resampling (value, weight) pairs together,
 * e.g. weighted per-case pass-rate differences. Equal weights give `bootstrapMean`'s result exactly.
 */
export function bootstrapWeightedMean(
  values: readonly number[],
  weights: readonly number[],
  options: BootstrapOptions = {},
): BootstrapResult {
  if (values.length !== weights.length) {
    throw new RangeError(
      `\`bootstrapWeightedMean\`: every value needs a weight, got ${values.length} values and ${weights.length} weights.`,
    )
  }
  if (weights.every((weight) => weight === weights[0])) return bootstrapMean(values, options)
  const { resamples = 2000, confidence = 0.95, seed = 1 } = options
  checkInteger('bootstrapWeightedMean', 'resamples', resamples, 1)
  checkProbability('bootstrapWeightedMean', 'confidence', confidence)
  const n = values.length
  let totalWeight = 0
  let weighted = 0
  for (let i = 0; i < n; i++) {
    totalWeight += weights[i] ?? 0
    weighted += (weights[i] ?? 0) * (values[i] ?? 0)
  }
  if (!(totalWeight > 0)) {
    throw new RangeError('`bootstrapWeightedMean`: needs a positive total weight.')
  }
  const random = seededRandom(seed)
  const means = new Float64Array(resamples)
  let kept = 0
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    let weight = 0
    for (let i = 0; i < n; i++) {
      const at = Math.floor(random() * n)
      sum += (weights[at] ?? 0) * (values[at] ?? 0)
      weight += weights[at] ?? 0
    }
    // a resample of weight-0 cases only has no mean; it is left out
    if (weight > 0) means[kept++] = sum / weight
  }
  const sorted = means.subarray(0, kept).sort()
  const meanOfMeans = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, kept)
  const variance = sorted.reduce((sum, value) => sum + (value - meanOfMeans) ** 2, 0) / Math.max(1, kept - 1)
  const tail = (1 - confidence) / 2
  const mean = weighted / totalWeight
  return {
    mean,
    standardError: Math.sqrt(variance),
    interval:
      kept === 0
        ? { low: mean, high: mean }
        : { low: quantileOfSorted(sorted, tail), high: quantileOfSorted(sorted, 1 - tail) },
  }
}
