import type { Suite } from '../cases/suite.ts'
import { RateLimiters } from '../engine/rate-limit.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { RunReport } from '../model/run-report.ts'
import { withKeylessModels } from '../providers/keyless.ts'
import { CassetteSet } from '../replay/cassettes.ts'
import { useRedaction } from '../util/redact.ts'
import { jobs } from './case-jobs.ts'
import { finishRun } from './finish-run.ts'
import { watchInterrupt } from './execute/interrupt.ts'
import { providerOf, runLanes } from './execute/lanes.ts'
import { runCase } from './execute/run-case.ts'
import { resolveRunOptions, type ResolvedRunOptions, type RunOptions } from './run-options.ts'
import { startResults } from './run-progress.ts'
import { modelOf, prepareRun, type CallServices } from './run-setup.ts'

export { newRunId, type RunOptions } from './run-options.ts'

/** Runs one suite; see `runSuites`. */
export function runSuite(suite: Suite, options: RunOptions = {}): Promise<RunReport> {
  return runSuites([suite], options)
}

/**
 * Runs every (case, variant, trial) pair of the suites, streaming each CaseResult to `results.jsonl` and the
 * reporters as it finishes, and returns the aggregates (also written to `summary.json`), with each suite's
 * comparison and gate. Throws a ConfigError when the run cannot start (a target that cannot load; a missing,
 * corrupt or wrong-version baseline) or a baseline cannot be written. Secrets are redacted from every file it writes
 * (see `useRedaction`).
 */
export async function runSuites(allSuites: readonly Suite[], options: RunOptions = {}): Promise<RunReport> {
  useRedaction({ patterns: [...(options.redact ?? []), ...allSuites.flatMap((suite) => suite.redact ?? [])] })
  const resolved = resolveRunOptions(allSuites, options)
  const limiters =
    resolved.rateLimit === false
      ? undefined
      : new RateLimiters({
          maxConcurrency: resolved.concurrency,
          ...(typeof resolved.rateLimit === 'object' ? resolved.rateLimit : {}),
        })
  if (resolved.cassettes === undefined) return runAll(resolved, { limiters })
  const cassettes = await CassetteSet.open(resolved.suites, resolved.cassettes)
  try {
    // replaying needs no API key for the models the cassettes cover: targets and judges resolve them keyless
    return await withKeylessModels(
      (model) => cassettes.servesWithoutKey(model),
      () => runAll(resolved, { cassettes, limiters }),
    )
  } finally {
    await cassettes.close()
  }
}

/** Prepares the run, runs its pairs lane by lane as results stream out, and finishes with the report. */
async function runAll(options: ResolvedRunOptions, services: CallServices): Promise<RunReport> {
  const setup = await prepareRun(options, services)
  const started = performance.now()
  const progress = await startResults(setup)
  for (const reporter of options.reporters ?? []) await reporter.onRunStart?.(setup.info)
  const stop = watchInterrupt(options)
  try {
    await runLanes(
      options.suites,
      // each variant's provider gets its own workers; suites without variants share one lane
      (suite) => (suite.variant ? providerOf(modelOf(suite, options).model) : ''),
      (lane) => jobs(setup, lane, progress.wanted),
      options.concurrency,
      async ({ caseIndex, job, skip }) => {
        if (skip) return progress.record(skip, caseIndex, stop)
        try {
          const run = (): Promise<CaseResult> => runCase(job, stop.signal)
          const result = await (options.aroundCase ? options.aroundCase(job, run) : run())
          await progress.record(result, caseIndex, stop)
        } catch (error) {
          if (!stop.signal.aborted) throw error
        }
      },
      () => stop.stoppedBy !== undefined,
    )
  } finally {
    stop.dispose()
    progress.results.close()
    await Promise.all(setup.targets.map(async (target) => target.close?.()))
  }
  return finishRun(setup, progress, stop.stoppedBy, performance.now() - started)
}
