import { bootstrapWeightedMean } from '../stats/bootstrap.ts'
import type { BootstrapOptions } from '../stats/bootstrap.ts'
import { pairedRateTest } from '../stats/paired-rates.ts'
import { percentile, percentiles } from '../stats/percentile.ts'
import { passFailVariance, minimumDetectableDrop } from '../stats/power.ts'
import { DEFAULT_ALPHA } from './defaults.ts'
import type {
  CaseComparison,
  CaseSide,
  CompareOptions,
  Comparison,
  PairedComparison,
  Transition,
} from './comparison.ts'
import type { Baseline } from './schema.ts'
import type { CaseSummary, RunSummary } from './summary.ts'
import { ageWarnings, caseWarnings, metaWarnings } from './warnings.ts'

const DAY_MS = 86_400_000
/** the power the minimum detectable drop is given at */
const POWER = 0.8

/**
 * Compares a run with its baseline case by case, with the paired test of weighted pass rates on the shared cases
 * and the smallest drop it can see. The weights, `critical:` and `expect_fail:` are the current run's.
 */
export function compareToBaseline(
  current: RunSummary,
  baseline: Baseline,
  options: CompareOptions = {},
): Comparison {
  const previous = new Map(baseline.cases.map((entry) => [entry.id, entry]))
  const seen = new Set<string>()
  const cases: CaseComparison[] = []
  for (const summary of current.cases) {
    seen.add(summary.id)
    const before = previous.get(summary.id)
    const after = sideOf(summary)
    if (before === undefined) {
      cases.push({
        id: summary.id,
        transition: 'new',
        tags: summary.tags,
        baseline: null,
        current: after,
        passRateDelta: null,
        ...caseSettings(summary),
      })
      continue
    }
    const side = sideOf(before)
    const comparable =
      before.inputHash === summary.inputHash && side.passRate !== null && after.passRate !== null
    cases.push({
      id: summary.id,
      transition: transitionOf(before.inputHash === summary.inputHash, side, after),
      tags: summary.tags,
      baseline: side,
      current: after,
      passRateDelta: comparable ? (after.passRate ?? 0) - (side.passRate ?? 0) : null,
      ...caseSettings(summary),
    })
  }
  for (const entry of baseline.cases) {
    if (seen.has(entry.id)) continue
    cases.push({
      id: entry.id,
      transition: 'removed',
      tags: entry.tags,
      baseline: sideOf(entry),
      current: null,
      passRateDelta: null,
    })
  }
  cases.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

  const paired = cases.filter((entry) => entry.passRateDelta !== null)
  const now = options.now ?? new Date()
  const baselineAgeDays = (now.getTime() - Date.parse(baseline.createdAt)) / DAY_MS
  return {
    suite: current.meta.suite,
    baselineCreatedAt: baseline.createdAt,
    baselineAgeDays,
    cases,
    counts: countTransitions(cases),
    accuracy: accuracyOf(cases),
    paired: pairedTest(paired, options.alpha ?? DEFAULT_ALPHA, options.bootstrap),
    latency: latencyOf(paired),
    cost: costOf(paired),
    warnings: [
      ...metaWarnings(current, baseline),
      ...ageWarnings(baselineAgeDays, baseline.createdAt, options.maxBaselineAgeDays),
      ...caseWarnings(cases),
    ],
  }
}

function caseSettings(summary: CaseSummary): Pick<CaseComparison, 'weight' | 'critical' | 'expectFail'> {
  return {
    ...(summary.weight !== undefined && summary.weight !== 1 && { weight: summary.weight }),
    ...(summary.critical !== undefined && { critical: summary.critical }),
    ...(summary.expectFail !== undefined && { expectFail: summary.expectFail }),
  }
}

function sideOf(entry: Omit<CaseSide, 'passRate' | 'score'> & { score?: number | undefined }): CaseSide {
  return {
    status: entry.status,
    passes: entry.passes,
    trials: entry.trials,
    passRate: entry.trials > 0 ? entry.passes / entry.trials : null,
    ...(entry.score !== undefined && { score: entry.score }),
    latencyMs: entry.latencyMs,
    costUsd: entry.costUsd,
  }
}

function transitionOf(sameInput: boolean, before: CaseSide, after: CaseSide): Transition {
  if (!sameInput) return 'input-changed'
  if (before.trials === 0 || after.trials === 0) return 'unscored'
  // cross-multiplied so 2/3 against 4/6 is exactly unchanged
  const order = after.passes * before.trials - before.passes * after.trials
  return order < 0 ? 'regressed' : order > 0 ? 'improved' : 'unchanged'
}

function countTransitions(cases: readonly CaseComparison[]): Record<Transition, number> {
  const counts: Record<Transition, number> = {
    regressed: 0,
    improved: 0,
    unchanged: 0,
    new: 0,
    removed: 0,
    'input-changed': 0,
    unscored: 0,
  }
  for (const entry of cases) counts[entry.transition]++
  return counts
}

function accuracyOf(cases: readonly CaseComparison[]): Comparison['accuracy'] {
  const baseline = weightedMean(cases.map((entry) => [entry.baseline?.passRate ?? null, entry.weight ?? 1]))
  const current = weightedMean(cases.map((entry) => [entry.current?.passRate ?? null, entry.weight ?? 1]))
  return { baseline, current, delta: baseline === null || current === null ? null : current - baseline }
}

function pairedTest(
  paired: readonly CaseComparison[],
  alpha: number,
  bootstrap: BootstrapOptions | undefined,
): PairedComparison | null {
  const sides = paired.flatMap((entry) =>
    entry.baseline && entry.current
      ? [{ weight: entry.weight ?? 1, baseline: entry.baseline, current: entry.current }]
      : [],
  )
  const test = pairedRateTest(
    sides.map(({ weight, baseline, current }) => ({
      weight,
      baselinePasses: baseline.passes,
      baselineTrials: baseline.trials,
      currentPasses: current.passes,
      currentTrials: current.trials,
    })),
  )
  if (test === null) return null
  const weighted = sides.filter((side) => side.weight > 0)
  const differences = weighted.map((side) => (side.current.passRate ?? 0) - (side.baseline.passRate ?? 0))
  const regressions = differences.filter((difference) => difference < 0).length
  const improvements = differences.filter((difference) => difference > 0).length
  const baselineTrials = Math.round(
    percentile(
      weighted.map((side) => side.baseline.trials),
      0.5,
    ),
  )
  const currentTrials = Math.round(
    percentile(
      weighted.map((side) => side.current.trials),
      0.5,
    ),
  )
  return {
    method: 'stratified-permutation',
    nullDistribution: test.resamples,
    cases: sides.length,
    regressions,
    improvements,
    ties: sides.length - regressions - improvements,
    baselineAccuracy: test.baselineRate,
    currentAccuracy: test.currentRate,
    meanDifference: test.meanDifference,
    interval: bootstrapWeightedMean(
      differences,
      weighted.map((side) => side.weight),
      bootstrap,
    ).interval,
    pValue: test.pValue,
    pRegression: test.pRegression,
    power: {
      alpha,
      power: POWER,
      minimumDetectableDrop: minimumDetectableDrop(
        weighted.map(({ weight, baseline, current }) => ({
          weight,
          // both runs' trials pooled: under "no change" they estimate the same pass rate
          variance: passFailVariance(baseline.passes + current.passes, baseline.trials + current.trials) ?? 0,
          baselineTrials: baseline.trials,
          currentTrials: current.trials,
        })),
        { alpha, power: POWER },
      ),
      baselineTrials,
      currentTrials,
    },
  }
}

function latencyOf(paired: readonly CaseComparison[]): Comparison['latency'] {
  const baseline = percentiles(paired.map((entry) => entry.baseline?.latencyMs ?? 0))
  const current = percentiles(paired.map((entry) => entry.current?.latencyMs ?? 0))
  return {
    baseline,
    current,
    p50Ratio: ratioOf(current?.p50, baseline?.p50),
    p95Ratio: ratioOf(current?.p95, baseline?.p95),
  }
}

function costOf(paired: readonly CaseComparison[]): Comparison['cost'] {
  const baselineUsd = sumKnown(paired.map((entry) => entry.baseline?.costUsd ?? null))
  const currentUsd = sumKnown(paired.map((entry) => entry.current?.costUsd ?? null))
  return { baselineUsd, currentUsd, ratio: ratioOf(currentUsd ?? undefined, baselineUsd ?? undefined) }
}

function ratioOf(current: number | undefined, baseline: number | undefined): number | null {
  return current === undefined || baseline === undefined || baseline === 0 ? null : current / baseline
}

function sumKnown(values: readonly (number | null)[]): number | null {
  if (values.length === 0) return null
  let sum = 0
  for (const value of values) {
    if (value === null) return null
    sum += value
  }
  return sum
}

function weightedMean(values: readonly (readonly [number | null, number])[]): number | null {
  let sum = 0
  let total = 0
  for (const [value, weight] of values) {
    if (value === null) continue
    sum += value * weight
    total += weight
  }
  return total === 0 ? null : sum / total
}
