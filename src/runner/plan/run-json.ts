import { readFile, rm } from 'node:fs/promises'
import { makeFolder } from '../../util/make-folder.ts'
import { basename, join } from 'node:path'
import type { GateOptions } from '../../baselines/gate-options.ts'
import type { FailOn } from '../../baselines/outcome.ts'
import { hashInput } from '../../baselines/hash.ts'
import { loadSuite } from '../../cases/load.ts'
import { selectCases } from '../../cases/select.ts'
import type { CaseList, Suite } from '../../cases/suite.ts'
import type { CaseDefinition } from '../../cases/case-definition.ts'
import { ConfigError } from '../../errors.ts'
import type { CassetteMode } from '../../replay/cassette.ts'
import { copyFileHashed } from '../../util/copy-file.ts'
import { writeJsonFile } from '../../util/json-file.ts'
import { selectShard } from './shard.ts'
import type { Shard } from '../../model/run-report.ts'

/** `run.json` format version: 2 copies the case files into the run, where 1 listed a hash per case. */
export const PLAN_VERSION = 2

/** How the cases were chosen, so `--resume` and `evals merge` can load them again. */
export interface RunSelection {
  /** absolute paths of the case files */
  files: string[]
  filter?: string
  tags?: string[]
}

/** What `run.json` holds: written when a run starts, read by `evals run --resume` and `evals merge`. */
export interface RunPlan {
  version: typeof PLAN_VERSION
  runId: string
  /** ISO time the run first started; a resumed run keeps it */
  startedAt: string
  selection: RunSelection
  model?: string
  /** several `--model`: the run's variants */
  models?: string[]
  trials?: number
  timeoutMs?: number
  /** `--concurrency` of the run, so a resumed run keeps it */
  concurrency?: number
  /** `--max-stored-chars`, when not the default: a resumed run stores as much as it began to */
  maxStoredChars?: number
  shard?: Shard
  /** `--baseline` given to the run, path made absolute */
  baseline?: { path: string; missing?: 'error' | 'ok'; gate?: GateOptions }
  /** `--fail-on` of the run, when not `failure`: a resumed or merged run exits as it would have */
  failOn?: FailOn
  /** `--judge` of the run: a resumed run judges as it began */
  judge?: string
  requireJudges?: true
  /** every pattern the run redacted (flags and case files): a resumed run redacts at least these */
  redact?: string[]
  /** `--record` / `--replay`: a resumed run serves model calls as it began */
  cassettes?: CassetteMode
  /** `--trace`: a resumed run captures spans as it began */
  trace?: true
  suites: PlannedSuite[]
}

export interface PlannedSuite {
  name: string
  /** absolute path of the case file */
  file: string
  /** SHA-256 of the case file when the run started: shards of one run agree on it; absent for a suite made in code */
  fileHash?: string
  /** the case file as it was then, copied into the run directory (a path relative to it), to tell what changed */
  snapshot?: string
  /** `Suite.datasetsHash` when the run started: a resumed or merged run refuses datasets that changed since */
  datasetsHash?: string
}

/** What a plan says besides its suites. */
export type PlanFields = Omit<RunPlan, 'version' | 'suites'>

/**
 * Writes `<dir>/run.json`, the plan of a run over `suites`, and copies each suite's case file into `<dir>/cases/`,
 * so a resumed or merged run can tell which cases changed since. Throws a ConfigError when a case file no longer
 * holds what was loaded.
 */
export async function writePlan(dir: string, fields: PlanFields, suites: readonly Suite[]): Promise<void> {
  await makeFolder(join(dir, 'cases'))
  const planned: PlannedSuite[] = []
  for (const [index, suite] of suites.entries()) {
    const entry: PlannedSuite = { name: suite.name, file: suite.file }
    if (suite.fileHash !== undefined) {
      const snapshot = join('cases', `${String(index)}-${basename(suite.file)}`)
      await snapshotCaseFile(suite.file, suite.fileHash, join(dir, snapshot))
      entry.fileHash = suite.fileHash
      entry.snapshot = snapshot
    }
    if (suite.datasetsHash !== undefined) entry.datasetsHash = suite.datasetsHash
    planned.push(entry)
  }
  await writeJsonFile(join(dir, 'run.json'), { version: PLAN_VERSION, ...fields, suites: planned })
}

/** Copies a case file to `to`, checking it still holds the bytes hashed when it was loaded. */
async function snapshotCaseFile(file: string, hash: string, to: string): Promise<void> {
  if ((await copyFileHashed(file, to)) !== hash) {
    await rm(to, { force: true })
    throw new ConfigError(`${file} changed after it was loaded; run again to use the new cases.`)
  }
}

/** Reads `<dir>/run.json`; a ConfigError says what is missing or wrong. */
export async function readPlan(dir: string, command: string): Promise<RunPlan> {
  const path = join(dir, 'run.json')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new ConfigError(
      `${command}: \`${path}\` not found; give a run directory written by \`evals run\`, e.g. \`reports/<run-id>\`.`,
    )
  }
  let plan: Omit<RunPlan, 'version'> & { version: unknown }
  try {
    plan = JSON.parse(text) as typeof plan
  } catch (error) {
    throw new ConfigError(`${command}: \`${path}\` is not valid JSON: ${(error as Error).message}`)
  }
  if (plan.version !== PLAN_VERSION) {
    throw new ConfigError(
      `${command}: \`${path}\` has version ${String(plan.version)}; this evals reads version ${String(PLAN_VERSION)}.`,
    )
  }
  return { ...plan, version: PLAN_VERSION }
}

/**
 * `suite/case` ids whose definition differs between the run planned in `dir` and the loaded `suites` (changed,
 * added or removed); a ConfigError when a dataset a suite reads changed, as the run kept no copy of it. A suite whose case file is unchanged is not read again; otherwise the copy the run kept is
 * loaded with the plan's selection and shard, and the cases are compared one by one.
 */
export async function changedCases(plan: RunPlan, dir: string, suites: readonly Suite[]): Promise<string[]> {
  const changed: string[] = []
  for (const planned of plan.suites) {
    const current = suites.find((suite) => suite.file === planned.file)
    if (current && current.datasetsHash !== planned.datasetsHash) {
      throw new ConfigError(
        `${planned.file}: a CSV or JSONL file its \`cases:\` names changed since the run started, so its rows are not the ones the run began with; restore the file, or start a new run.`,
      )
    }
    if (planned.snapshot === undefined || current?.fileHash === planned.fileHash) continue
    const before = await loadSuite(planned.file, { from: join(dir, planned.snapshot) })
    const [then] = selectShard(selectCases([before], plan.selection), plan.shard)
    changed.push(...changedBetween(planned.name, then?.cases, current?.cases))
  }
  return changed
}

/** The `suite/case` ids of cases in one list and not the other, or defined differently in each. */
function changedBetween(suite: string, before: CaseList | undefined, after: CaseList | undefined): string[] {
  const hashes = new Map<string, string>()
  for (let index = 0; index < (before?.length ?? 0); index++) {
    const caseDef = (before as CaseList).get(index)
    hashes.set(caseDef.id, definitionHash(caseDef))
  }
  const changed: string[] = []
  for (let index = 0; index < (after?.length ?? 0); index++) {
    const caseDef = (after as CaseList).get(index)
    if (hashes.get(caseDef.id) !== definitionHash(caseDef)) changed.push(`${suite}/${caseDef.id}`)
    hashes.delete(caseDef.id)
  }
  for (const id of hashes.keys()) changed.push(`${suite}/${id}`)
  return changed
}

/** A case's definition without its line: moving a case within its file changes nothing. */
function definitionHash(caseDef: CaseDefinition): string {
  const { line: _line, ...definition } = caseDef
  return hashInput(definition)
}
