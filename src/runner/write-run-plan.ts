import { resolve } from 'node:path'
import type { Suite } from '../cases/suite.ts'
import type { RunInfo } from '../model/run-report.ts'
import { writePlan, type PlanFields } from './plan/run-json.ts'
import { planSuite } from './plan/plan-suite.ts'
import { pairKey } from './results/read-finished.ts'
import type { ResolvedRunOptions } from './run-options.ts'

/** Writes `run.json`; returns the keys of the run's pairs when resuming (to check the saved rows against). */
export async function writeRunPlan(
  info: RunInfo,
  options: ResolvedRunOptions,
): Promise<Set<string> | undefined> {
  await writePlan(info.dir, planFields(info, options), oncePerFile(options.suites))
  if (options.resume === undefined) return undefined
  const keys = new Set<string>()
  for (const suite of options.suites)
    for (const planned of planSuite(suite, options))
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

function planFields(info: RunInfo, options: ResolvedRunOptions): PlanFields {
  const { baseline } = options
  return {
    runId: info.runId,
    startedAt: info.startedAt,
    selection: options.selection ?? {
      files: [...new Set(info.suites.map((suite) => resolve(suite.file)))],
    },
    ...(options.model !== undefined && { model: options.model }),
    ...(options.models !== undefined && { models: [...options.models] }),
    ...(options.trials !== undefined && { trials: options.trials }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    concurrency: info.concurrency,
    ...(options.shard && { shard: options.shard }),
    ...(baseline && {
      baseline: {
        path: resolve(baseline.path),
        ...(baseline.missing && { missing: baseline.missing }),
        ...(baseline.gate && { gate: baseline.gate }),
      },
    }),
  }
}
