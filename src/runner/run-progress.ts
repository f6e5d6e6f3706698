import { join } from 'node:path'
import type { Suite } from '../cases/suite.ts'
import type { CaseResult } from '../model/case-result.ts'
import { ResultRows } from '../report-file/large-run/index.ts'
import { suiteKey } from '../report-file/suite-key.ts'
import type { Reporter } from '../reporters/reporter.ts'
import type { Interrupt } from './execute/interrupt.ts'
import { JsonLinesFile } from './results/results-file.ts'
import { pairKey, readFinished, type Finished } from './results/read-finished.ts'
import type { ResolvedRun } from './plan/run-settings.ts'
import type { RunSetup } from './run-setup.ts'
import { SnapshotTally } from './results/snapshots.ts'
import { RunStats } from './tally/run-stats.ts'
import { VariantTokenTally } from './tally/variant-comparison.ts'
import { writeRunPlan } from './write-run-plan.ts'

/** Resuming: says whether a pair still has to run. */
export type WantedPair = (suite: Suite, caseId: string, trial: number) => boolean

/** Writes the plan, reads back a resumed run's rows, and opens the results file. */
export async function startResults({ run: options, info }: RunSetup): Promise<RunProgress> {
  const resultsPath = join(info.dir, 'results.jsonl')
  const stats = new RunStats()
  // planned in the order `jobs` walks the cases, so a job's `caseIndex` is its case's index here
  for (const suite of options.suites) stats.plan(suite.name, suite.cases, suite.variant?.name)
  // the plan is written, and its pairs kept only when resuming: a 100k-case plan is not held for the whole run
  const plannedPairs = await writeRunPlan(info, options)
  if (options.resume === undefined) {
    const results = new JsonLinesFile(resultsPath)
    return new RunProgress(options, { results, stats, finished: 0, rows: new ResultRows(info.total) })
  }
  let finished = 0
  // read (and repair) the interrupted run's rows before the append stream opens the file
  const done = await readFinished(
    resultsPath,
    (result) => {
      finished++
      stats.add(result)
    },
    options.resume.warn ??
      ((message) => {
        process.emitWarning(message)
      }),
    plannedPairs ?? new Set(),
  )
  info.pending = options.resume.runMissing ? info.total - finished : 0
  const results = new JsonLinesFile(resultsPath)
  // the rows of a resumed run's file were written before, maybe by another version: the report reads them all again
  return new RunProgress(options, { results, stats, finished, wanted: wantedAfter(done, options) })
}

/** A run's results as they arrive: the file, the aggregates and the reporters they go to. */
export class RunProgress {
  readonly results: JsonLinesFile
  readonly stats: RunStats
  readonly snapshotTally = new SnapshotTally()
  readonly tokens = new VariantTokenTally()
  /** where each result sits in the results file; undefined when resuming */
  readonly rows: ResultRows | undefined
  /** resuming: leaves out the pairs that already have a result */
  readonly wanted: WantedPair | undefined
  /** pairs with a result, a resumed run's earlier ones included */
  finished: number
  readonly #options: ResolvedRun
  readonly #reporters: readonly Reporter[]
  readonly #suiteIndex: Map<string, number>

  constructor(
    options: ResolvedRun,
    start: {
      results: JsonLinesFile
      stats: RunStats
      finished: number
      rows?: ResultRows
      wanted?: WantedPair
    },
  ) {
    this.#options = options
    this.#reporters = options.reporters
    this.results = start.results
    this.stats = start.stats
    this.finished = start.finished
    this.rows = start.rows
    this.wanted = start.wanted
    this.#suiteIndex = new Map(
      options.suites.map((suite, index) => [suiteKey(suite.name, suite.variant?.name), index]),
    )
  }

  /**
   * Counts, saves and reports one pair's result (`json`: its canonical JSON, when already made); with `bail`, a
   * failure stops the run.
   */
  async record(result: CaseResult, caseIndex: number, stop: Interrupt, json?: string): Promise<void> {
    this.finished++
    this.stats.add(result, caseIndex)
    this.snapshotTally.add(result)
    this.tokens.add(result)
    this.#append(result, json)
    for (const reporter of this.#reporters) {
      // most reporters return nothing here: awaiting that anyway costs a microtask per pair
      const pending = reporter.onCaseEnd?.(result)
      if (pending) await pending
    }
    if (this.#options.bail && (result.status === 'failed' || result.status === 'errored'))
      stop.stoppedBy ??= 'bail'
  }

  #append(result: CaseResult, json: string | undefined): void {
    const offset = this.results.offset
    const bytes = json === undefined ? this.results.append(result) : this.results.appendJson(json)
    if (!this.rows) return
    const index = this.#suiteIndex.get(suiteKey(result.suite, result.variant)) ?? this.#options.suites.length
    this.rows.add(index, result.caseId, result.trial, offset, bytes, true)
    if (result.status !== 'skipped') this.rows.judges.add(result.verdicts)
  }
}

function wantedAfter(done: Finished, options: ResolvedRun): WantedPair {
  return (suite, caseId, trial) =>
    options.resume?.runMissing !== false &&
    !done.keys.has(pairKey(suite.name, caseId, trial, suite.variant?.name))
}
