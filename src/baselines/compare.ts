import { pairedBootstrap } from '../stats/bootstrap.ts'
import type { BootstrapOptions } from '../stats/bootstrap.ts'
import { mcnemarExact, signTest } from '../stats/binomial.ts'
import { percentiles } from '../stats/percentile.ts'
import type {
  CaseComparison,
  CaseSide,
  CompareOptions,
  Comparison,
  PairedComparison,
  Transition,
} from './comparison.ts'
import type { Baseline } from './schema.ts'
import type { RunSummary } from './summary.ts'
import { ageWarnings, caseWarnings, metaWarnings } from './warnings.ts'

const DAY_MS = 86_400_000

/** Compares a run with its baseline case by case, with a paired significance test on the shared cases. */
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
    paired: pairedTest(paired, options.bootstrap),
    latency: latencyOf(paired),
    cost: costOf(paired),
    warnings: [
      ...metaWarnings(current, baseline),
      ...ageWarnings(baselineAgeDays, baseline.createdAt, options.maxBaselineAgeDays),
      ...caseWarnings(cases),
    ],
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
  const baseline = meanOf(cases.map((entry) => entry.baseline?.passRate ?? null))
  const current = meanOf(cases.map((entry) => entry.current?.passRate ?? null))
  return { baseline, current, delta: baseline === null || current === null ? null : current - baseline }
}

function pairedTest(
  paired: readonly CaseComparison[],
  bootstrap: BootstrapOptions | undefined,
): PairedComparison | null {
  if (paired.length === 0) return null
  const before = paired.map((entry) => entry.baseline?.passRate ?? 0)
  const after = paired.map((entry) => entry.current?.passRate ?? 0)
  const differences = paired.map((entry) => entry.passRateDelta ?? 0)
  const regressions = differences.filter((difference) => difference < 0).length
  const improvements = differences.filter((difference) => difference > 0).length
  const singleTrials = paired.every((entry) => entry.baseline?.trials === 1 && entry.current?.trials === 1)
  // McNemar's b counts baseline-only passes, so its upper tail is the regression side; the sign test's is the lower
  const test = singleTrials ? mcnemarExact(regressions, improvements) : signTest(differences)
  const baselineAccuracy = mean(before)
  const currentAccuracy = mean(after)
  return {
    method: singleTrials ? 'mcnemar-exact' : 'sign-test',
    cases: paired.length,
    regressions,
    improvements,
    ties: paired.length - regressions - improvements,
    baselineAccuracy,
    currentAccuracy,
    meanDifference: currentAccuracy - baselineAccuracy,
    interval: pairedBootstrap(before, after, bootstrap).interval,
    pValue: test.pValue,
    pRegression: singleTrials ? test.pGreater : test.pLess,
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

function meanOf(values: readonly (number | null)[]): number | null {
  const known = values.filter((value) => value !== null)
  return known.length === 0 ? null : mean(known)
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}
