import type { Comparison } from '../baselines/comparison.ts'
import type { RunReport } from '../model/run-report.ts'
import type { ReportHeader, ReportRun } from './schema.ts'
import type { Judge } from './judge-set.ts'
import { REPORT_SCHEMA_VERSION } from './version.ts'

/** The parts of a RunReport a JSON report is built from (with `results.jsonl` for the cases). */
export type ReportInput = Pick<
  RunReport,
  | 'runId'
  | 'startedAt'
  | 'durationMs'
  | 'suites'
  | 'concurrency'
  | 'stoppedBy'
  | 'total'
  | 'counts'
  | 'notRun'
  | 'accuracy'
  | 'latencyMs'
  | 'usage'
  | 'costUsd'
  | 'unknownCostCount'
  | 'unknownUsageCount'
  | 'comparison'
  | 'comparisons'
  | 'gate'
  | 'variants'
  | 'dir'
  | 'resultsFile'
  | 'rows'
>

/** Everything about the run but its cases, in a fixed key order. */
export function reportHeader(
  run: ReportInput,
  extra: { cliVersion: string; git: ReportRun['git']; judges: readonly Judge[] },
): ReportHeader {
  const comparison = comparisonsOf(run)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    run: {
      id: run.runId,
      startedAt: run.startedAt,
      endedAt: new Date(Date.parse(run.startedAt) + run.durationMs).toISOString(),
      durationMs: run.durationMs,
      cliVersion: extra.cliVersion,
      ...(extra.git && { git: extra.git }),
      suites: run.suites.map((suite) => ({
        name: suite.name,
        file: suite.file,
        targetId: suite.targetId,
        ...(suite.model !== undefined && { model: suite.model }),
        ...(suite.variant !== undefined && { variant: suite.variant }),
        ...(suite.baseline && { baseline: suite.baseline }),
      })),
      judges: [...extra.judges],
      concurrency: run.concurrency,
      ...(run.stoppedBy !== undefined && { stoppedBy: run.stoppedBy }),
    },
    summary: {
      total: run.total,
      counts: { ...run.counts },
      notRun: run.notRun,
      accuracy: run.accuracy,
      latencyMs: run.latencyMs,
      usage: run.usage,
      costUsd: run.costUsd,
      unknownCostCount: run.unknownCostCount,
      unknownUsageCount: run.unknownUsageCount,
    },
    ...(comparison.length > 0 && { comparison }),
    ...(run.gate && { gate: run.gate }),
    ...(run.variants && { variants: run.variants }),
  }
}

/** The runner sets `comparison` for one compared suite and `comparisons` for several; the report always lists. */
function comparisonsOf(
  run: Pick<RunReport, 'comparison' | 'comparisons'>,
): NonNullable<ReportHeader['comparison']> {
  const list: readonly Comparison[] = run.comparisons ?? (run.comparison ? [run.comparison] : [])
  return list.map((entry) => ({ ...entry, cases: entry.cases.map((c) => ({ ...c, tags: [...c.tags] })) }))
}
