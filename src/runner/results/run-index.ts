import { appendFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { RunMeta } from '../../baselines/summary.ts'
import type { CaseStatus } from '../../model/case-result.ts'
import type { CaseTally, RunReport, SuiteStats } from '../../model/run-report.ts'
import type { GateResult } from '../../baselines/gate.ts'
import type { Redactor } from '../../util/redact.ts'

/** The file in a reports folder with one line per finished run, newest last: what `evals view` lists. */
export const RUN_INDEX_FILE = 'index.jsonl'

/** `index.jsonl` line format version. */
export const RUN_INDEX_VERSION = 1

/** One suite of a finished run (one variant of it, when it has variants), as the run list shows it. */
export interface RunIndexSuite {
  suite: string
  /** the variant these numbers are of, when the suite has variants */
  variant?: string
  targetId: string
  modelId: string | null
  git?: { commit?: string; branch?: string }
  /** weighted accuracy with its 95% Wilson interval; null when no case was graded */
  accuracy: { value: number; low: number; high: number } | null
  /** cases by their status over all trials */
  counts: Record<CaseStatus, number>
  /** mean cost of a trial summed over the cases; null when some case's cost was unknown */
  costUsd: number | null
  /** this suite's (variant's) gate decision, when it was gated */
  gate?: GateResult['decision']
}

/** One line of `index.jsonl`: a finished run, small enough that 1,000 runs list in milliseconds. */
export interface RunIndexLine {
  v: typeof RUN_INDEX_VERSION
  /** the run's folder name under the reports folder */
  runId: string
  startedAt: string
  durationMs: number
  stoppedBy?: 'bail' | 'interrupt'
  /** whole-run totals: pairs by status and the known cost */
  counts: Record<CaseStatus, number>
  costUsd: number | null
  /** the run's gate decision over every gated suite, when some suite was gated */
  gate?: GateResult['decision']
  suites: RunIndexSuite[]
}

/** The index line of a finished run. */
export function runIndexLineOf(report: RunReport): RunIndexLine {
  return {
    v: RUN_INDEX_VERSION,
    runId: basename(report.dir),
    startedAt: report.startedAt,
    durationMs: Math.round(report.durationMs),
    ...(report.stoppedBy && { stoppedBy: report.stoppedBy }),
    counts: report.counts,
    costUsd: report.costUsd,
    ...(report.gate && { gate: report.gate.decision }),
    // a run's tally counts its cases without making each one's stats
    suites: indexSuitesOf(report.suiteStats, report.cases.tallies?.() ?? report.cases),
  }
}

/** What `indexSuitesOf` reads of a suite's stats (a `SuiteStats`, or its JSON in summary.json). */
export type IndexedSuiteStats = Pick<SuiteStats, 'suite' | 'variant' | 'accuracy'> & {
  meta: Pick<RunMeta, 'targetId' | 'modelId' | 'git'>
  gate?: Pick<GateResult, 'decision'>
}

/** Each suite's accuracy, case counts and cost, from its stats and one pass over the run's cases. */
export function indexSuitesOf(
  suiteStats: readonly IndexedSuiteStats[],
  cases: Iterable<Readonly<CaseTally>>,
): RunIndexSuite[] {
  const suites = suiteStats.map((entry): RunIndexSuite => ({
    suite: entry.suite,
    ...(entry.variant !== undefined && { variant: entry.variant }),
    targetId: entry.meta.targetId,
    modelId: entry.meta.modelId,
    ...(entry.meta.git && { git: entry.meta.git }),
    accuracy: entry.accuracy && {
      value: entry.accuracy.accuracy,
      low: entry.accuracy.interval.low,
      high: entry.accuracy.interval.high,
    },
    counts: { passed: 0, failed: 0, errored: 0, skipped: 0 },
    costUsd: 0,
    ...(entry.gate && { gate: entry.gate.decision }),
  }))
  // each variant of a suite counts its own cases
  const keyOf = (suite: string, variant: string | undefined): string => `${suite}\u0000${variant ?? ''}`
  const bySuite = new Map(suites.map((suite) => [keyOf(suite.suite, suite.variant), suite]))
  for (const stats of cases) {
    const suite = bySuite.get(keyOf(stats.suite, stats.variant))
    if (suite === undefined) continue
    suite.counts[stats.status]++
    // a case's cost is the mean of a trial; errored trials cost too
    if (stats.status !== 'skipped')
      suite.costUsd =
        suite.costUsd === null || stats.costUsd === null
          ? null
          : suite.costUsd + stats.costUsd * (stats.trials + stats.errored)
  }
  return suites
}

/**
 * Appends the run's line to `index.jsonl` beside its folder, in one `write` of an `O_APPEND` file, so runs ending
 * together never interleave their lines; a line torn by a crash is skipped by readers, which then scan the folder.
 */
export async function appendRunIndex(report: RunReport, redactor: Redactor): Promise<void> {
  await appendFile(
    join(dirname(report.dir), RUN_INDEX_FILE),
    `${JSON.stringify(redactor.value(runIndexLineOf(report)))}\n`,
  )
}
