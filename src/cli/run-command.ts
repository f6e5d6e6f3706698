import { CaseFileError, EvalsError } from '../errors.ts'
import { loadSuites } from '../cases/load.ts'
import { createReporters } from '../reporters/index.ts'
import { resumeRun } from '../runner/resume-run.ts'
import { runSuites } from '../runner/run-suite.ts'
import { exitCodeOf } from './exit-code.ts'
import { RUN_HELP } from './help.ts'
import { parseRunFlags, type RunFlags } from './options.ts'

/** `evals run`: loads the case files, runs them with a console reporter, and maps the report to an exit code. */
export async function runCommand(args: readonly string[]): Promise<number> {
  let flags: RunFlags
  try {
    flags = parseRunFlags(args)
  } catch (error) {
    return fail(error)
  }
  if (flags.help) {
    process.stdout.write(RUN_HELP)
    return 0
  }
  if (flags.patterns.length === 0 && flags.resume === undefined) {
    process.stderr.write(
      'evals run: give at least one case file or glob, e.g. `evals run cases/quickstart.yaml`.\n',
    )
    return 2
  }
  const interrupt = new AbortController()
  const onSigint = (): void => {
    if (interrupt.signal.aborted) process.exit(130)
    process.stderr.write(
      '\nInterrupted: letting running cases finish (up to 2 s); Ctrl-C again to quit now.\n',
    )
    interrupt.abort()
  }
  process.on('SIGINT', onSigint)
  try {
    const files: string[] = []
    const reporters = await createReporters(flags.reporters, {
      color: flags.color && process.stdout.isTTY,
      files,
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
    const report = await runSuites(suites, {
      concurrency: flags.concurrency,
      bail: flags.bail,
      outDir: flags.outDir,
      signal: interrupt.signal,
      reporters,
      selection: { files: [...new Set(suites.map((suite) => suite.file))], ...selection },
      // the saved run's files, model, trials and shard; a `--baseline` given now wins over the saved one
      ...resumed?.options,
      ...(flags.model === undefined ? {} : { model: flags.model }),
      ...(flags.judge === undefined ? {} : { judge: flags.judge }),
      ...(flags.requireJudges === true && { requireJudges: true }),
      ...(flags.trials === undefined ? {} : { trials: flags.trials }),
      ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
      ...(flags.cassettes === undefined ? {} : { cassettes: flags.cassettes }),
      ...(flags.baseline !== undefined && {
        baseline: { path: flags.baseline, missing: flags.baselineMissing, gate: flags.gate },
      }),
      ...(flags.updateBaseline && { updateBaseline: { dir: flags.baselineDir } }),
      ...(flags.shard && { shard: flags.shard }),
    })
    for (const [i, file] of files.entries())
      process.stdout.write(`${i === 0 ? 'Reports   ' : ' '.repeat(10)}${file}\n`)
    if (flags.updateBaseline && report.stoppedBy !== undefined) {
      process.stderr.write(
        `Baseline not updated: the run stopped early (${report.stoppedBy === 'bail' ? '--bail' : 'interrupted'}), so it would miss cases. Run the whole suite again with \`--update-baseline\`.\n`,
      )
    }
    return exitSoon(exitCodeOf(report))
  } catch (error) {
    return fail(error)
  } finally {
    process.off('SIGINT', onSigint)
  }
}

/** Known errors print their message (a case-file error lists every issue); others their stack. */
function fail(error: unknown): number {
  if (error instanceof CaseFileError) {
    const count = error.issues.length
    process.stderr.write(
      `${error.message}\n\n${count} problem${count === 1 ? '' : 's'} in the case files; nothing ran.\n`,
    )
  } else if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  return 2
}

/** A target abandoned after a timeout may hold the event loop open; leave anyway a moment after the run. */
function exitSoon(code: number): number {
  setTimeout(() => process.exit(code), 1000).unref()
  return code
}
