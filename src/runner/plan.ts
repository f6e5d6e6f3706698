import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { GateOptions } from '../baselines/gate-options.ts'
import { hashInput } from '../baselines/hash.ts'
import type { CaseDefinition, Suite } from '../cases/suite.ts'
import { ConfigError } from '../errors.ts'
import { writeJsonFile } from '../util/json-file.ts'
import type { Shard } from './shard.ts'

/** `run.json` format version. */
export const PLAN_VERSION = 1

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
  trials?: number
  timeoutMs?: number
  shard?: Shard
  /** `--baseline` given to the run, path made absolute */
  baseline?: { path: string; missing?: 'error' | 'ok'; gate?: GateOptions }
  suites: PlannedSuite[]
}

export interface PlannedSuite {
  name: string
  file: string
  /** hash of every case of the suite before sharding: shards of one run agree on it */
  allCasesHash: string
  /** this run's cases (after sharding), each with a hash of its definition */
  cases: { id: string; hash: string }[]
}

/** A hash of a case's definition, its source line left out so moving a case in the file changes nothing. */
export function hashCase(caseDef: CaseDefinition): string {
  const { line: _line, ...definition } = caseDef
  return hashInput(definition)
}

/** What a plan says besides its suites. */
export type PlanFields = Omit<RunPlan, 'version' | 'suites'>

/**
 * Writes `<dir>/run.json`: the plan of a run over `suites` (already sharded); `allSuites` are the suites before
 * sharding. The case lists are written as they are made, their hashes kept meanwhile as one string, so a
 * 100k-case plan holds no object per case.
 */
export async function writePlan(
  dir: string,
  fields: PlanFields,
  suites: readonly Suite[],
  allSuites: readonly Suite[],
): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeJsonFile(join(dir, 'run.json'), {
    version: PLAN_VERSION,
    ...fields,
    suites: suites.map((suite) => {
      const hashes = suite.cases.map(hashCase).join('')
      const whole = allSuites.find((candidate) => candidate.file === suite.file) ?? suite
      const allHashes =
        whole.cases.length === suite.cases.length ? hashes : whole.cases.map(hashCase).join('')
      return {
        name: suite.name,
        file: suite.file,
        allCasesHash: hashOfHashes(allHashes),
        cases: plannedCases(suite, hashes),
      }
    }),
  })
}

const HASH_LENGTH = 16

/** `hashInput` of the list of the hashes joined in `hashes`, without making the list. */
function hashOfHashes(hashes: string): string {
  const digest = createHash('sha256').update('[')
  for (let at = 0; at < hashes.length; at += HASH_LENGTH)
    digest.update(`${at === 0 ? '' : ','}"${hashes.slice(at, at + HASH_LENGTH)}"`)
  return digest.update(']').digest('hex').slice(0, HASH_LENGTH)
}

/** A suite's planned cases, made one at a time from the joined hashes as the list is written. */
function* plannedCases(suite: Suite, hashes: string): Generator<{ id: string; hash: string }> {
  for (const [index, caseDef] of suite.cases.entries())
    yield { id: caseDef.id, hash: hashes.slice(index * HASH_LENGTH, (index + 1) * HASH_LENGTH) }
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

/** `suite/case` ids whose definition differs between the plan and the loaded suites (changed, added or removed). */
export function changedCases(plan: RunPlan, suites: readonly Suite[]): string[] {
  const planned = new Map<string, string>()
  for (const suite of plan.suites) for (const c of suite.cases) planned.set(`${suite.name}/${c.id}`, c.hash)
  const changed: string[] = []
  const seen = new Set<string>()
  for (const suite of suites) {
    for (const caseDef of suite.cases) {
      const key = `${suite.name}/${caseDef.id}`
      seen.add(key)
      if (planned.get(key) !== hashCase(caseDef)) changed.push(key)
    }
  }
  for (const key of planned.keys()) if (!seen.has(key)) changed.push(key)
  return changed
}
