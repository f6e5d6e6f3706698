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
  /** every (suite, case id, trial) pair in run order; a skipped case has one pair, trial 0 */
  pairs: [string, string, number][]
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

/** The plan of a run over `suites` (already sharded); `allCases` are the suites before sharding. */
export function planOf(
  fields: Omit<RunPlan, 'version' | 'suites' | 'pairs'>,
  suites: readonly Suite[],
  allCases: readonly Suite[],
  pairsOf: (caseDef: CaseDefinition) => number,
): RunPlan {
  const pairs: RunPlan['pairs'] = []
  for (const suite of suites)
    for (const caseDef of suite.cases)
      for (let trial = 0; trial < pairsOf(caseDef); trial++) pairs.push([suite.name, caseDef.id, trial])
  return {
    version: PLAN_VERSION,
    ...fields,
    suites: suites.map((suite) => {
      const cases = suite.cases.map((caseDef) => ({ id: caseDef.id, hash: hashCase(caseDef) }))
      const whole = allCases.find((candidate) => candidate.file === suite.file) ?? suite
      const allHashes =
        whole.cases.length === suite.cases.length ? cases.map((c) => c.hash) : whole.cases.map(hashCase)
      return { name: suite.name, file: suite.file, allCasesHash: hashInput(allHashes), cases }
    }),
    pairs,
  }
}

export async function writePlan(dir: string, plan: RunPlan): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeJsonFile(join(dir, 'run.json'), plan)
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
