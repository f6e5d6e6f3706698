import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { Suite } from '../cases/suite.ts'
import { ConfigError } from '../errors.ts'
import { readLines } from '../report-file/lines.ts'
import type { Reporter } from '../reporters/reporter.ts'
import type { Target } from '../targets/target.ts'
import type { BaselineOptions } from './plan/run-settings.ts'
import { changedCases, readPlan, type RunPlan } from './plan/run-json.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { RunReport } from '../model/run-report.ts'
import { JsonLinesFile } from './results/results-file.ts'
import { pairKey } from './results/read-finished.ts'
import { changedMessage, loadPlannedSuites } from './resume-run.ts'
import { newRunId, resolveRun } from './plan/resolve-run.ts'
import { closeServices, makeServices } from './run-services.ts'
import { runResolved } from './run-suite.ts'
import type { Redactor } from '../util/redact.ts'
import { selectShard } from './plan/shard.ts'

/** Options of `mergeRuns`. */
export interface MergeOptions {
  /** the merged run directory @default `<parent of the first run>/<new run id>` */
  out?: string
  reporters?: readonly Reporter[]
  /** compare with this baseline and gate (`--baseline`); @default the one the shard runs were given, if any */
  baseline?: BaselineOptions
  /** notices: missing shards, dropped lines @default process.emitWarning */
  warn?: (message: string) => void
}

const COMMAND = 'evals merge'

/**
 * Joins runs of one plan split with `--shard` (run directories or their summary.json) into one run directory with
 * one results.jsonl, run.json and summary.json, its aggregates, comparison and gate recomputed from the rows by the
 * runner itself. Throws a ConfigError for runs of different suites, overlapping shards, or changed case files.
 */
export async function mergeRuns(inputs: readonly string[], options: MergeOptions = {}): Promise<RunReport> {
  const warn =
    options.warn ??
    ((message: string) => {
      process.emitWarning(message)
    })
  if (inputs.length === 0) {
    throw new ConfigError(`${COMMAND}: give the shard runs to merge, e.g. \`evals merge reports/shard-*\`.`)
  }
  const dirs = inputs.map(runDirOf)
  const plans = await Promise.all(dirs.map((dir) => readPlan(dir, COMMAND)))
  checkSameSuites(dirs, plans)
  checkShards(dirs, plans, warn)
  const first = plans[0] as RunPlan
  const suites = await loadPlannedSuites(first)
  const changed = (
    await Promise.all(
      plans.map((plan, i) => changedCases(plan, dirs[i] as string, selectShard(suites, plan.shard))),
    )
  ).flat()
  if (changed.length > 0) throw new ConfigError(changedMessage(COMMAND, changed, 'a new run'))

  const out = resolve(options.out ?? join(dirname(resolve(dirs[0] as string)), newRunId()))
  if (existsSync(join(out, 'results.jsonl'))) {
    throw new ConfigError(`${COMMAND}: \`${out}\` already holds a run; choose another \`--out\`.`)
  }
  const { shard: _shard, ...saved } = first
  const run = resolveRun(suites, {
    outDir: dirname(out),
    runId: basename(out),
    targets: await targetsOf(dirs[0] as string, suites),
    rateLimit: false,
    ...(options.baseline && { baseline: options.baseline }),
    ...(options.reporters && { reporters: options.reporters }),
    resume: {
      startedAt: plans.map((plan) => plan.startedAt).sort()[0] ?? first.startedAt,
      runMissing: false,
      warn,
    },
    // the shards' saved settings (model, trials, judge, redact patterns…), for the whole run, not one shard
    saved,
  })
  const services = await makeServices(run)
  try {
    await joinResults(dirs, join(out, 'results.jsonl'), services.redactor, warn)
    return await runResolved(run, services)
  } finally {
    await closeServices(services)
  }
}

function runDirOf(input: string): string {
  if (!existsSync(input)) throw new ConfigError(`${COMMAND}: cannot find \`${input}\`.`)
  return statSync(input).isFile() ? dirname(input) : input
}

function checkSameSuites(dirs: readonly string[], plans: readonly RunPlan[]): void {
  const signature = (plan: RunPlan): string =>
    JSON.stringify({
      suites: plan.suites.map(({ name, fileHash }) => ({ name, fileHash })),
      filter: plan.selection.filter,
      tags: plan.selection.tags,
      model: plan.model,
      trials: plan.trials,
    })
  const expected = signature(plans[0] as RunPlan)
  for (const [i, plan] of plans.entries()) {
    if (signature(plan) === expected) continue
    throw new ConfigError(
      `${COMMAND}: \`${dirs[i] ?? ''}\` did not run the same suites as \`${dirs[0] ?? ''}\` (case files, selection, model or trials differ: suites ${plan.suites.map((s) => s.name).join(', ')} vs ${(plans[0] as RunPlan).suites.map((s) => s.name).join(', ')}); only shards of one run can be merged.`,
    )
  }
}

function checkShards(
  dirs: readonly string[],
  plans: readonly RunPlan[],
  warn: (message: string) => void,
): void {
  const byIndex = new Map<number, string>()
  const count = plans[0]?.shard?.count
  for (const [i, plan] of plans.entries()) {
    const dir = dirs[i] ?? ''
    const label = plan.shard ? `${String(plan.shard.index)}/${String(plan.shard.count)}` : 'unsharded'
    if (plan.shard?.count !== count) {
      throw new ConfigError(
        `${COMMAND}: shards overlap: \`${dir}\` is ${label} but \`${dirs[0] ?? ''}\` is ${count === undefined ? 'unsharded' : `of ${String(count)}`}; merge the shards of one \`--shard i/n\` split.`,
      )
    }
    const index = plan.shard?.index ?? 1
    const other = byIndex.get(index)
    if (other !== undefined) {
      throw new ConfigError(`${COMMAND}: shards overlap: \`${other}\` and \`${dir}\` are both ${label}.`)
    }
    byIndex.set(index, dir)
  }
  if (count !== undefined && byIndex.size < count) {
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index))
    warn(
      `merging ${String(byIndex.size)} of ${String(count)} shards; shard ${missing.join(', ')} missing, their cases count as not run`,
    )
  }
}

/**
 * Copies every run's rows into one file, through the merged run's redactor; a pair in two runs is an overlap, a
 * repeat within one is dropped.
 */
async function joinResults(
  dirs: readonly string[],
  path: string,
  redactor: Redactor,
  warn: (message: string) => void,
): Promise<void> {
  const owner = new Map<string, string>()
  const file = new JsonLinesFile(path, redactor)
  try {
    for (const dir of dirs) {
      const source = join(dir, 'results.jsonl')
      if (!existsSync(source)) {
        warn(`\`${source}\` not found; that run has no results`)
        continue
      }
      for await (const line of readLines(source)) {
        if (line.text.trim() === '') continue
        let result: CaseResult
        try {
          result = JSON.parse(line.text) as CaseResult
        } catch {
          warn(`ignoring an unreadable line at byte ${String(line.offset)} of ${source} (a write cut short)`)
          continue
        }
        const key = pairKey(result.suite, result.caseId, result.trial, result.variant)
        const seen = owner.get(key)
        if (seen === dir) {
          warn(
            `ignoring a second row for ${result.suite}/${result.caseId} trial ${String(result.trial)} in ${source}`,
          )
          continue
        }
        if (seen !== undefined) {
          throw new ConfigError(
            `${COMMAND}: shards overlap: ${result.suite}/${result.caseId} trial ${String(result.trial)} is in both \`${seen}\` and \`${dir}\`.`,
          )
        }
        owner.set(key, dir)
        file.append(result)
      }
    }
  } finally {
    file.close()
  }
}

/** Stand-ins for the targets, which never run: each keeps the id the shard runs recorded. */
async function targetsOf(dir: string, suites: readonly Suite[]): Promise<Map<string, Target>> {
  const ids = new Map<string, string>()
  try {
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Pick<RunReport, 'suites'>
    for (const suite of summary.suites) ids.set(suite.name, suite.targetId)
  } catch {
    // an interrupted shard may have no summary; the id is then unknown
  }
  return new Map(
    suites.map((suite) => [
      suite.file,
      {
        id: ids.get(suite.name) ?? 'unknown',
        run: () => Promise.reject(new Error('evals merge runs no case')),
      },
    ]),
  )
}
