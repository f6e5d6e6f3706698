import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadSuites } from '../src/cases/load.ts'
import type { Suite } from '../src/cases/suite.ts'
import { ensureJsonReport } from '../src/report-file/write-json.ts'
import { createReporters } from '../src/reporters/index.ts'
import { markdownRenderer } from '../src/reporters/markdown.ts'
import type { RunReport } from '../src/model/run-report.ts'
import { resolveRun } from '../src/runner/plan/resolve-run.ts'
import { closeServices, makeServices } from '../src/runner/run-services.ts'
import { runResolved } from '../src/runner/run-suite.ts'
import type { Redactor } from '../src/util/redact.ts'
import type { ActionInputs } from './inputs.ts'
import { regressionCount } from './outcome.ts'

/** A finished run: what the summary, the comment, the annotations and the outputs are made from. */
export interface EvalsRun {
  suites: Suite[]
  report: RunReport
  /** `report.json` in the run directory */
  reportPath: string
  /** the Markdown report (`report.md` in the run directory) */
  markdown: string
  /** the run's redactor: the summary, the comment and the log go through it */
  redactor: Redactor
  /** one line when `cassettes: record` recorded nothing (a run that looks like success but saved no cassette) */
  nothingRecorded?: string
}

/**
 * Loads and runs the suites as `evals run` does, with the `reporters` input plus `json` and `markdown`, whose
 * report.md becomes the job summary and the PR comment.
 */
export async function runEvals(
  inputs: ActionInputs,
  onRedactor?: (redactor: Redactor) => void,
): Promise<EvalsRun> {
  const suites = await loadSuites(inputs.cases)
  const reporters = await createReporters([...inputs.reporters, 'json', 'markdown'], { color: false })
  const run = resolveRun(suites, {
    outDir: inputs.outDir,
    reporters,
    ...(inputs.model !== undefined && { model: inputs.model }),
    ...(inputs.trials !== undefined && { trials: inputs.trials }),
    ...(inputs.concurrency !== undefined && { concurrency: inputs.concurrency }),
    ...(inputs.redact.length > 0 && { redact: inputs.redact }),
    ...(inputs.cassettes !== undefined && { cassettes: inputs.cassettes }),
    ...(inputs.baselineDir !== undefined && {
      baseline: { path: inputs.baselineDir, missing: inputs.baselineMissing },
    }),
  })
  const services = await makeServices(run)
  onRedactor?.(services.redactor)
  let report: RunReport
  try {
    report = await runResolved(run, services)
  } finally {
    await closeServices(services)
  }
  const reportPath = await ensureJsonReport(report, { redactor: services.redactor })
  const markdown = await readFile(join(report.dir, markdownRenderer.fileName), 'utf8')
  const nothingRecorded = services.cassettes?.nothingRecorded('Input `cassettes: record`')
  return {
    suites,
    report,
    reportPath,
    markdown,
    redactor: services.redactor,
    ...(nothingRecorded !== undefined && { nothingRecorded }),
  }
}

/** The action's outputs; numbers as strings, `accuracy` empty when nothing was graded. */
export function outputsOf(run: EvalsRun): Record<string, string> {
  const { counts, accuracy, gate } = run.report
  return {
    accuracy: accuracy === null ? '' : String(accuracy),
    passed: String(counts.passed),
    partial: String(counts.partial ?? 0),
    failed: String(counts.failed),
    errored: String(counts.errored),
    regressions: String(regressionCount(run.report)),
    gate: gate?.decision ?? 'none',
    'report-path': run.reportPath,
    'report-dir': run.report.dir,
  }
}

/** The summary and comment of a run that could not start: the error, each case-file problem on its own line. */
export function couldNotRunMarkdown(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const fence = '````'
  return `## evals · could not run\n\n⚠️ Nothing was evaluated: this is a configuration or infrastructure problem, not a regression.\n\n${fence}text\n${text.slice(0, 20_000)}\n${fence}\n`
}
