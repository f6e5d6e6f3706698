import type { Suite } from '../cases/suite.ts'
import type { RunInfo } from '../model/run-report.ts'
import { planSuite } from './plan/plan-suite.ts'
import { savedSettings } from './plan/resolve-run.ts'
import { writePlan } from './plan/run-json.ts'
import type { ResolvedRun } from './plan/run-settings.ts'
import { pairKey } from './results/read-finished.ts'

/** Writes `run.json`; returns the keys of the run's pairs when resuming (to check the saved rows against). */
export async function writeRunPlan(info: RunInfo, run: ResolvedRun): Promise<Set<string> | undefined> {
  await writePlan(
    info.dir,
    { runId: info.runId, ...savedSettings(run, info.startedAt) },
    oncePerFile(run.suites),
  )
  if (run.resume === undefined) return undefined
  const keys = new Set<string>()
  for (const suite of run.suites)
    for (const planned of planSuite(suite, run))
      for (let trial = 0; trial < planned.trials; trial++)
        keys.add(pairKey(suite.name, planned.id, trial, suite.variant?.name))
  return keys
}

/** The suites without their other variants' copies: the plan lists each case file once. */
function oncePerFile(suites: readonly Suite[]): Suite[] {
  const seen = new Set<string>()
  return suites.filter((suite) => {
    const key = `${suite.file}\u0000${suite.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
