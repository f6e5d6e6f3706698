import { join } from 'node:path'
import type { RunReport } from '../model/run-report.ts'
import { writeJsonFile } from '../util/json-file.ts'
import { baselineWritable, combineGates } from './tally/baselines.ts'
import { appendRunIndex } from './results/run-index.ts'
import type { RunProgress } from './run-progress.ts'
import type { RunSetup } from './run-setup.ts'
import { statsOfSuites } from './stats-of-suites.ts'

/** Saves snapshots and baselines, compares and gates each suite, and writes and announces the report. */
export async function finishRun(
  setup: RunSetup,
  progress: RunProgress,
  stoppedBy: RunReport['stoppedBy'],
  durationMs: number,
): Promise<RunReport> {
  const { run, info } = setup
  const summary = progress.stats.summary()
  await saveSnapshots(setup, progress)
  const { summary: snapshotSummary } = progress.snapshotTally
  const { updateBaseline } = run.gate
  const writeBaselines =
    updateBaseline !== undefined && stoppedBy === undefined && baselineWritable(summary, updateBaseline.force)
  const { suiteStats, comparisons, variants } = await statsOfSuites(setup, progress, writeBaselines)
  const gate = combineGates(suiteStats)
  const report: RunReport = {
    ...info,
    ...summary,
    suiteStats,
    durationMs,
    notRun: info.total - progress.finished,
    resultsFile: progress.results.path,
    ...(progress.rows && { rows: progress.rows }),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...(comparisons.length === 1 && { comparison: comparisons[0] }),
    ...(comparisons.length > 1 && { comparisons }),
    ...(gate && { gate }),
    ...(variants && { variants }),
    ...(snapshotSummary.new + snapshotSummary.unchanged + snapshotSummary.changed + snapshotSummary.updated >
      0 && {
      snapshots: snapshotSummary,
    }),
  }
  await writeJsonFile(join(info.dir, 'summary.json'), setup.services.redactor.value(report))
  await appendRunIndex(report, setup.services.redactor)
  for (const reporter of run.reporters) await reporter.onRunEnd?.(report)
  return report
}

async function saveSnapshots(setup: RunSetup, progress: RunProgress): Promise<void> {
  for (const store of setup.snapshots ?? []) {
    const written = await store.save(setup.services.redactor)
    if (written !== undefined) progress.snapshotTally.summary.written.push(written)
  }
}
