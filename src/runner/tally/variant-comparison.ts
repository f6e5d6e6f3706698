import { compareToBaseline } from '../../baselines/compare.ts'
import type { Comparison } from '../../baselines/comparison.ts'
import { baselineFromSummaries, type RunMeta } from '../../baselines/summary.ts'
import type { Interval } from '../../stats/interval.ts'
import { percentiles } from '../../stats/percentile.ts'
import { isSignificant } from '../../stats/significance.ts'
import { toCaseSummary } from './case-stats.ts'
import type { CaseResult } from '../../model/case-result.ts'
import type { CaseStats, VariantComparison, VariantPair, VariantSummary } from '../../model/run-report.ts'

/** What the comparison reads of one variant once the run is over. */
export interface VariantRun {
  suite: string
  variant: string
  baseline: boolean
  meta: RunMeta
  cases: Iterable<CaseStats>
  accuracy: { accuracy: number; interval: Interval } | null
  tokens: VariantTokens | undefined
}

const MAX_DISAGREEMENTS = 50

/** Summaries of every variant and the comparison of each pair of variants of one suite. */
export function compareVariants(runs: readonly VariantRun[], alpha = 0.05): VariantComparison {
  const cases = runs.map((run) => [...run.cases])
  const variants = runs.map((run, index) => summaryOf(run, cases[index] ?? []))
  const pairs: VariantPair[] = []
  for (const [i, a] of runs.entries())
    for (const [j, b] of runs.entries()) {
      if (j <= i || a.suite !== b.suite) continue
      pairs.push(pairOf(a, b, compareRuns(a, cases[i] ?? [], b, cases[j] ?? []), alpha))
    }
  return { variants, pairs }
}

/** `b` against `a` as against a baseline: the comparison the gate reads. */
export function compareRuns(
  a: VariantRun,
  aCases: readonly CaseStats[],
  b: VariantRun,
  bCases: readonly CaseStats[],
): Comparison {
  const baseline = baselineFromSummaries(a.meta, aCases.map(toCaseSummary))
  return compareToBaseline({ meta: b.meta, cases: bCases.map(toCaseSummary) }, baseline)
}

function summaryOf(run: VariantRun, cases: readonly CaseStats[]): VariantSummary {
  const scored = cases.filter((entry) => entry.passHatK !== null)
  const ran = cases.filter((entry) => entry.trials + entry.errored > 0)
  const runs = ran.reduce((sum, entry) => sum + entry.trials + entry.errored, 0)
  const passes = cases.reduce((sum, entry) => sum + entry.passes, 0)
  const costKnown = ran.every((entry) => entry.costUsd !== null)
  const cost = ran.reduce((sum, entry) => sum + (entry.costUsd ?? 0) * (entry.trials + entry.errored), 0)
  const latency = percentiles(ran.map((entry) => entry.latencyMs))
  return {
    suite: run.suite,
    variant: run.variant,
    ...(run.baseline && { baseline: true as const }),
    ...(run.meta.modelId !== null && { model: run.meta.modelId }),
    cases: scored.length,
    accuracy: run.accuracy && { value: run.accuracy.accuracy, interval: run.accuracy.interval },
    passHatK: scored.length === 0 ? null : mean(scored.map((entry) => entry.passHatK ?? 0)),
    latencyMs: latency && { p50: latency.p50, p95: latency.p95 },
    tokensPerCase:
      run.tokens === undefined || run.tokens.unknown > 0 || runs === 0 ? null : run.tokens.total / runs,
    costPerCaseUsd: costKnown && runs > 0 ? cost / runs : null,
    costPerPassUsd: costKnown && passes > 0 ? cost / passes : null,
  }
}

function pairOf(a: VariantRun, b: VariantRun, comparison: Comparison, alpha: number): VariantPair {
  const { paired } = comparison
  const disagreements = comparison.cases
    .filter((entry) => entry.passRateDelta !== null && entry.passRateDelta !== 0)
    .sort((x, y) => Math.abs(y.passRateDelta ?? 0) - Math.abs(x.passRateDelta ?? 0))
    .slice(0, MAX_DISAGREEMENTS)
    .map((entry) => ({ id: entry.id, a: entry.baseline?.passRate ?? 0, b: entry.current?.passRate ?? 0 }))
  const significant = paired !== null && isSignificant(paired.pValue, alpha) && paired.meanDifference !== 0
  return {
    suite: a.suite,
    a: a.variant,
    b: b.variant,
    verdict: !significant ? 'no-difference' : paired.meanDifference > 0 ? 'b-better' : 'a-better',
    method: paired?.method ?? null,
    cases: paired?.cases ?? 0,
    difference: paired?.meanDifference ?? null,
    interval: paired?.interval ?? null,
    pValue: paired?.pValue ?? null,
    disagreements,
  }
}

/** The target's tokens of each variant, counted as its results arrive. */
export interface VariantTokens {
  total: number
  /** pairs whose target reported no usage: the per-case figure is then unknown */
  unknown: number
}

/** Tallies the target's tokens per (suite, variant). */
export class VariantTokenTally {
  readonly #bySuite = new Map<string, VariantTokens>()

  add(result: CaseResult): void {
    if (result.variant === undefined || result.status === 'skipped' || !result.transcript) return
    const key = `${result.suite}\u0000${result.variant}`
    const tokens = this.#bySuite.get(key) ?? { total: 0, unknown: 0 }
    const usage = result.transcript.usage
    if (usage === null) tokens.unknown++
    else tokens.total += usage.inputTokens + usage.outputTokens
    this.#bySuite.set(key, tokens)
  }

  of(suite: string, variant: string): VariantTokens | undefined {
    return this.#bySuite.get(`${suite}\u0000${variant}`)
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}
