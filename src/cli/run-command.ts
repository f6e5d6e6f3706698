import { isAbsolute, relative } from 'node:path'
import { loadSuites } from '../cases/load.ts'
import { createReporters } from '../reporters/index.ts'
import type { RunReport } from '../model/run-report.ts'
import { DEFAULT_GRACE_MS } from '../runner/plan/defaults.ts'
import { resolveRun } from '../runner/plan/resolve-run.ts'
import { resumeRun } from '../runner/resume-run.ts'
import { closeServices, makeServices } from '../runner/run-services.ts'
import { runResolved } from '../runner/run-suite.ts'
import { redactConsoleWith } from './console-redaction.ts'
import { defineCommand } from './command.ts'
import { exitCodeOf, outcomeLine } from './exit-code.ts'
import { passedOn } from './flag-table.ts'
import { EXIT_CODES } from './help.ts'
import { parseRunFlags, RUN_FLAGS, type RunFlags } from './options.ts'
import type { CaseTracing } from '../telemetry/otlp-export.ts'

/** `evals run`: loads the case files, runs them with a console reporter, and maps the report to an exit code. */
export const runCommand = defineCommand({
  name: 'evals run',
  usage: 'Usage: evals run <cases.yaml|glob…> [options]',
  flags: RUN_FLAGS,
  footer: EXIT_CODES,
  parse: parseRunFlags,
  run: runWithFlags,
})

async function runWithFlags(flags: RunFlags): Promise<number> {
  if (flags.patterns.length === 0 && flags.resume === undefined) {
    process.stderr.write(
      'evals run: give at least one case file or glob, e.g. `evals run cases/quickstart.yaml`.\n',
    )
    return 2
  }
  const interrupt = new AbortController()
  let tracing: CaseTracing | undefined
  const onSigint = (): void => {
    if (interrupt.signal.aborted) process.exit(130)
    process.stderr.write(
      `\nInterrupted: letting running cases finish (up to ${String(DEFAULT_GRACE_MS / 1000)} s); Ctrl-C again to quit now.\n`,
    )
    interrupt.abort()
  }
  process.on('SIGINT', onSigint)
  let code: number
  try {
    const files: string[] = []
    const reporters = await createReporters(flags.reporters, {
      color: flags.color && process.stdout.isTTY,
      files,
      // the summary's Duration is the command's wall time, from the start of the process
      commandStartMs: 0,
    })
    const resumed =
      flags.resume === undefined
        ? undefined
        : await resumeRun(flags.resume, {
            force: flags.resumeForce === true,
            warn: (message) => process.stderr.write(`Warning: ${message}\n`),
          })
    const selection = {
      ...(flags.filter === undefined ? {} : { filter: flags.filter }),
      ...(flags.tags.length === 0 ? {} : { tags: flags.tags }),
    }
    const suites = resumed?.suites ?? (await loadSuites(flags.patterns, selection))
    // flags over the resumed run's saved settings (model, trials, judge, redact patterns…) over the case files
    const run = resolveRun(suites, {
      bail: flags.bail,
      outDir: flags.outDir,
      signal: interrupt.signal,
      reporters,
      ...(resumed === undefined && {
        selection: { files: [...new Set(suites.map((suite) => suite.file))], ...selection },
      }),
      ...resumed?.options,
      // judge, concurrency, trials, timeout, shard, redact, fail-on: as given
      ...passedOn(RUN_FLAGS, flags),
      ...(flags.model === undefined ? {} : { model: flags.model }),
      ...(flags.models === undefined ? {} : { models: flags.models }),
      ...(flags.cassettes === undefined ? {} : { cassettes: flags.cassettes }),
      ...(flags.baseline !== undefined && {
        baseline: { path: flags.baseline, missing: flags.baselineMissing, gate: flags.gate },
      }),
      ...(flags.updateBaseline && {
        updateBaseline: { dir: flags.baselineDir, force: flags.forceBaseline },
      }),
      snapshots: { dir: flags.baselineDir, update: flags.updateSnapshots },
    })
    const services = await makeServices(
      run,
      flags.otel === undefined
        ? {}
        : { otel: { url: flags.otel, warn: (message) => process.stderr.write(`Warning: ${message}\n`) } },
    )
    redactConsoleWith(services.redactor)
    tracing = services.otel
    let report: RunReport
    try {
      report = await runResolved(tracing ? { ...run, aroundCase: tracing.aroundCase } : run, services)
    } finally {
      await closeServices(services)
    }
    for (const [i, file] of files.entries())
      process.stdout.write(`${i === 0 ? 'Reports   ' : ' '.repeat(10)}${file}\n`)
    if (report.stoppedBy === 'interrupt' && report.notRun > 0) {
      process.stderr.write(
        `Interrupted: ${report.notRun} case run${report.notRun === 1 ? '' : 's'} did not finish. Finish them with \`evals run --resume ${shortPath(report.dir)}\`.\n`,
      )
    }
    const nothingRecorded = services.cassettes?.nothingRecorded()
    if (nothingRecorded !== undefined) process.stderr.write(`Warning: ${nothingRecorded}\n`)
    process.stdout.write(`${outcomeLine(report)}\n`)
    if (flags.updateBaseline && report.stoppedBy !== undefined) {
      process.stderr.write(
        `Baseline not updated: the run stopped early (${report.stoppedBy === 'bail' ? '--bail' : 'interrupted'}), so it would miss cases. Run the whole suite again with \`--update-baseline\`.\n`,
      )
    } else if (flags.updateBaseline) {
      for (const line of skippedBaselines(report)) process.stderr.write(`${line}\n`)
    }
    code = exitCodeOf(report)
  } finally {
    process.off('SIGINT', onSigint)
    // before the exit timer starts: a slow or unreachable --otel endpoint still gets its say
    await tracing?.shutdown()
  }
  return exitSoon(code)
}

/** `dir` relative to the working directory when it lies below it, else as given */
function shortPath(dir: string): string {
  const below = relative(process.cwd(), dir)
  return below === '' || below.startsWith('..') || isAbsolute(below) ? dir : below
}

/** Why `--update-baseline` skipped a suite, one line each: its failing cases, and the ways out. */
function skippedBaselines(report: RunReport): string[] {
  return report.suiteStats.flatMap((stats) => {
    if (stats.baselineSkipped === undefined) return []
    const suite = stats.variant === undefined ? stats.suite : `${stats.suite} [${stats.variant}]`
    return [
      `Baseline of \`${suite}\` not updated: ${stats.baselineSkipped}; a baseline records a good run. ` +
        'Fix them, mark a known failure with `expect_fail: true`, or add `--force` to record this run as it is.',
    ]
  })
}

/** A target abandoned after a timeout may hold the event loop open; leave anyway a moment after the run. */
function exitSoon(code: number): number {
  setTimeout(() => process.exit(code), 1000).unref()
  return code
}
