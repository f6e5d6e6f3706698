import type { Suite } from '../cases/suite.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { RunReport } from '../model/run-report.ts'
import { withKeylessModels } from '../providers/keyless.ts'
import { jobs } from './case-jobs.ts'
import { watchInterrupt } from './execute/interrupt.ts'
import { providerOf, runLanes } from './execute/lanes.ts'
import { storedForm } from './execute/stored-size.ts'
import { runCase } from './execute/run-case.ts'
import { finishRun } from './finish-run.ts'
import { resolveRun } from './plan/resolve-run.ts'
import type { ResolvedRun, RunOptions } from './plan/run-settings.ts'
import { lockRunFolder } from './results/run-lock.ts'
import { startResults } from './run-progress.ts'
import { closeServices, makeServices, type RunServices } from './run-services.ts'
import { prepareRun, type RunSetup } from './run-setup.ts'

export type { RunOptions } from './plan/run-settings.ts'

/** Runs one suite; see `runSuites`. */
export function runSuite(suite: Suite, options: RunOptions = {}): Promise<RunReport> {
  return runSuites([suite], options)
}

/**
 * Runs every (case, variant, trial) pair of the suites, streaming each CaseResult to `results.jsonl` and the
 * reporters as it finishes, and returns the aggregates (also written to `summary.json`), with each suite's
 * comparison and gate. Throws a ConfigError when the run cannot start (a target that cannot load; a missing,
 * corrupt or wrong-version baseline; options that contradict each other) or a baseline cannot be written. Secrets
 * are redacted from every value it writes (see `RunServices`).
 */
export async function runSuites(allSuites: readonly Suite[], options: RunOptions = {}): Promise<RunReport> {
  return runResolved(resolveRun(allSuites, options))
}

/** Runs a resolved run with services of its own (or the caller's, who then closes them). */
export async function runResolved(run: ResolvedRun, given?: RunServices): Promise<RunReport> {
  const services = given ?? (await makeServices(run))
  try {
    // replaying needs no API key for the models the cassettes cover: targets and judges resolve them keyless
    return await withKeylessModels(services.keyless, () => runAll(run, services))
  } finally {
    if (!given) await closeServices(services)
  }
}

/** Prepares the run, runs its pairs lane by lane as results stream out, and finishes with the report. */
async function runAll(run: ResolvedRun, services: RunServices): Promise<RunReport> {
  const setup = await prepareRun(run, services)
  const release = await lockRunFolder(setup.info.dir)
  try {
    return await runLocked(setup)
  } finally {
    await release()
  }
}

/** Runs the pairs of a prepared run whose folder this process holds. */
async function runLocked(setup: RunSetup): Promise<RunReport> {
  const { run, services } = setup
  const started = performance.now()
  const progress = await startResults(setup)
  for (const reporter of run.reporters) await reporter.onRunStart?.(setup.info)
  const stop = watchInterrupt(run)
  try {
    await runLanes(
      run.suites,
      // each variant's provider gets its own workers; suites without variants share one lane
      (suite) => (suite.variant ? providerOf(suite.model) : ''),
      (lane) => jobs(setup, lane, progress.wanted),
      run.concurrency,
      async ({ caseIndex, job, skip }, slot) => {
        if (skip) return progress.record(services.redactor.value(skip), caseIndex, stop)
        try {
          const pair = async (): Promise<CaseResult> =>
            services.redactor.valueLoaded(await runCase(job, stop.signal, slot))
          // cut after redaction: a secret across the cut is redacted whole, never kept in part
          const stored = storedForm(
            await (run.aroundCase ? run.aroundCase(job, pair) : pair()),
            run.maxStoredChars,
          )
          await progress.record(stored.value, caseIndex, stop, stored.json)
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
