import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { readRegularFile } from './run-folder.ts'
import {
  indexSuitesOf,
  RUN_INDEX_FILE,
  RUN_INDEX_VERSION,
  type IndexedSuiteStats,
  type RunIndexLine,
  type RunIndexSuite,
} from '../runner/results/run-index.ts'

/**
 * How a run folder stands: `finished` has its summary; `running` has results written in the last `LIVE_MS`;
 * `partial` stopped without a summary (killed, or a shard not merged yet); `torn` has files that cannot be read.
 */
export type RunState = 'finished' | 'running' | 'partial' | 'torn'

/** A run folder as the run list shows it. */
export interface RunEntry {
  /** index of the reports folder among those `evals view` serves */
  root: number
  runId: string
  state: RunState
  startedAt: string | null
  durationMs: number | null
  /** per suite; for a run without a summary, the suite names its plan lists, without numbers */
  suites: RunIndexSuite[]
  /** true when the folder holds report.html */
  report: boolean
  /** why a torn run could not be read */
  problem?: string
}

/** A run whose results.jsonl or run.json changed within this many milliseconds counts as still running. */
export const LIVE_MS = 120_000

/** Every run folder of the reports folders, newest first; index lines first, then a scan of the rest. */
export async function listRuns(roots: readonly string[]): Promise<RunEntry[]> {
  const lists = await Promise.all(roots.map((root, index) => runsOf(root, index)))
  return lists
    .flat()
    .sort(
      (a, b) =>
        (b.startedAt ?? b.runId).localeCompare(a.startedAt ?? a.runId) || b.runId.localeCompare(a.runId),
    )
}

async function runsOf(root: string, rootIndex: number): Promise<RunEntry[]> {
  let names: string[]
  try {
    names = (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return []
  }
  const indexed = await readIndex(join(root, RUN_INDEX_FILE))
  const runs = await Promise.all(
    names.map(async (runId): Promise<RunEntry | undefined> => {
      const dir = join(root, runId)
      const line = indexed.get(runId)
      const report = await exists(join(dir, 'report.html'))
      if (line) return { root: rootIndex, ...fromIndexLine(line), report }
      const scanned = await scanFolder(dir)
      return scanned && { root: rootIndex, runId, report, ...scanned }
    }),
  )
  return runs.filter((run) => run !== undefined)
}

/** The index's lines by run id, the last line of a run winning; torn or foreign lines are skipped. */
async function readIndex(file: string): Promise<Map<string, RunIndexLine>> {
  const lines = new Map<string, RunIndexLine>()
  let text: string
  try {
    text = (await readRegularFile(file)) ?? ''
  } catch {
    return lines
  }
  for (const raw of text.split('\n')) {
    if (raw === '') continue
    try {
      const line = JSON.parse(raw) as Partial<RunIndexLine> | null
      if (line?.v === RUN_INDEX_VERSION && typeof line.runId === 'string' && Array.isArray(line.suites))
        lines.set(line.runId, line as RunIndexLine)
    } catch {
      // a line torn by a crash: its folder is scanned instead
    }
  }
  return lines
}

function fromIndexLine(line: RunIndexLine): Omit<RunEntry, 'root' | 'report'> {
  return {
    runId: line.runId,
    state: 'finished',
    startedAt: line.startedAt,
    durationMs: line.durationMs,
    suites: line.suites,
  }
}

type Scanned = Omit<RunEntry, 'root' | 'runId' | 'report'>

/** A folder without an index line: its summary.json, or what its plan and results say; undefined for a non-run. */
async function scanFolder(dir: string): Promise<Scanned | undefined> {
  // links and special files are refused: a folder's summary.json → /proc/self/environ must not reach the page
  const summaryText = await readRegularFile(join(dir, 'summary.json')).catch(() => undefined)
  if (summaryText !== undefined) {
    try {
      return fromSummary(JSON.parse(summaryText) as SummaryJson)
    } catch (error) {
      return torn(`summary.json: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const [plan, results] = await Promise.all([
    stat(join(dir, 'run.json')).catch(() => undefined),
    stat(join(dir, 'results.jsonl')).catch(() => undefined),
  ])
  if (plan === undefined && results === undefined) return undefined
  const changed = Math.max(plan?.mtimeMs ?? 0, results?.mtimeMs ?? 0)
  let planJson: { startedAt?: unknown; suites?: { name?: unknown }[] }
  try {
    planJson = JSON.parse((await readRegularFile(join(dir, 'run.json'))) ?? '') as typeof planJson
  } catch {
    return torn('run.json is missing or unreadable')
  }
  return {
    state: Date.now() - changed < LIVE_MS ? 'running' : 'partial',
    startedAt: typeof planJson.startedAt === 'string' ? planJson.startedAt : null,
    durationMs: null,
    suites: (planJson.suites ?? [])
      .map((suite) => suite.name)
      .filter((name) => typeof name === 'string')
      .map(emptySuite),
  }
}

function torn(problem: string): Scanned {
  return { state: 'torn', startedAt: null, durationMs: null, suites: [], problem }
}

function emptySuite(suite: string): RunIndexSuite {
  return {
    suite,
    targetId: '',
    modelId: null,
    accuracy: null,
    counts: { passed: 0, failed: 0, errored: 0, skipped: 0 },
    costUsd: null,
  }
}

/** What the run list reads of a summary.json written without an index line. */
interface SummaryJson {
  startedAt: string
  durationMs: number
  suiteStats: IndexedSuiteStats[]
  cases: Parameters<typeof indexSuitesOf>[1]
}

function fromSummary(summary: SummaryJson): Scanned {
  if (!Array.isArray(summary.suiteStats) || !Array.isArray(summary.cases))
    throw new Error('not an evals run summary (no `suiteStats` and `cases`)')
  return {
    state: 'finished',
    startedAt: summary.startedAt,
    durationMs: Math.round(summary.durationMs),
    suites: indexSuitesOf(summary.suiteStats, summary.cases),
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}
