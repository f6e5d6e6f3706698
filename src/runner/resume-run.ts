import { basename, dirname, resolve } from 'node:path'
import { loadSuites } from '../cases/load.ts'
import type { Suite } from '../cases/suite.ts'
import { ConfigError } from '../errors.ts'
import { changedCases, readPlan, type RunPlan } from './plan/run-json.ts'
import type { RunOptions } from './plan/run-settings.ts'
import { selectShard } from './plan/shard.ts'

/** A run to finish: its run.json, its suites as saved, and where and since when it runs. */
export interface ResumedRun {
  plan: RunPlan
  suites: Suite[]
  /** what continues the run in its own folder, with its saved settings (`runSuites(suites, options)`) */
  options: Pick<RunOptions, 'outDir' | 'runId' | 'resume' | 'saved'>
}

/**
 * Reads `<runDir>/run.json` and loads its case files with its selection. Throws a ConfigError naming the cases
 * whose definition changed since the run, unless `force`.
 */
export async function resumeRun(
  runDir: string,
  { force, warn }: { force: boolean; warn?: (message: string) => void },
): Promise<ResumedRun> {
  const command = 'evals run --resume'
  const plan = await readPlan(runDir, command)
  const suites = await loadPlannedSuites(plan)
  const changed = await changedCases(plan, runDir, selectShard(suites, plan.shard))
  if (changed.length > 0 && !force) throw new ConfigError(changedMessage(command, changed, '--resume-force'))
  const dir = resolve(runDir)
  return {
    plan,
    suites,
    options: {
      outDir: dirname(dir),
      runId: basename(dir),
      resume: { startedAt: plan.startedAt, ...(warn && { warn }) },
      saved: plan,
    },
  }
}

/** The case files of a plan, with its `--filter` and `--tag` (before sharding). */
export function loadPlannedSuites(plan: RunPlan): Promise<Suite[]> {
  const { files, filter, tags } = plan.selection
  return loadSuites(files, {
    ...(filter === undefined ? {} : { filter }),
    ...(tags === undefined ? {} : { tags }),
  })
}

export function changedMessage(command: string, changed: readonly string[], force: string): string {
  const shown = changed.slice(0, 20).map((key) => `  ${key}`)
  const more = changed.length > 20 ? [`  … and ${String(changed.length - 20)} more`] : []
  return [
    `${command}: ${String(changed.length)} case${changed.length === 1 ? '' : 's'} changed since the run (definition hash differs, or the case was added or removed):`,
    ...shown,
    ...more,
    `Results of old and new definitions would be mixed. Start a new run, or pass \`${force}\` to go on anyway.`,
  ].join('\n')
}
