import type { CaseStatus, CaseSummary } from '../../baselines/summary.ts'
import type { CaseList } from '../../cases/suite.ts'
import { WeightedAccuracyTally, type WeightedAccuracy } from '../../stats/proportion.ts'
import { isFlaky, passAtK, passHatK } from '../../stats/trials.ts'
import { TypedList } from '../../util/typed-list.ts'
import type { CaseResult } from '../../model/case-result.ts'
import type { CaseStats, CaseStatsList, CaseTally } from '../../model/run-report.ts'

/**
 * Per-case aggregates of a run, filled online from CaseResults; each suite's cases must be registered with `plan`
 * first. Totals live in typed columns (about 50 bytes a case) and the cases' ids, tags and weights are read from
 * their suites' case lists, so 100k-case runs stay small.
 */
export class CaseStatsTally {
  /** each planned suite, its cases numbered from `start` on */
  readonly #suites: PlannedCases[] = []
  #length = 0
  #byKey: Map<string, number> | undefined
  readonly #columns = new Columns()

  /** Registers the cases of a suite (under a variant) before they run; case `i` of the list is then case `start + i` here. */
  plan(suite: string, cases: CaseList, variant?: string): { start: number } {
    const start = this.#length
    this.#suites.push({ name: suite, variant, cases, start })
    this.#length += cases.length
    this.#columns.grow(this.#length)
    this.#byKey = undefined
    return { start }
  }

  /** Adds one pair's result; `index` is what `plan` returned for its case, found by suite and id when absent. */
  add(result: CaseResult, index = this.#indexOf(result.suite, result.caseId, result.variant)): void {
    if (index === undefined) return
    const c = this.#columns
    if (result.status === 'skipped') {
      bump(c.skipped, index, 1)
      return
    }
    if (result.status === 'errored') bump(c.errored, index, 1)
    else {
      bump(c.graded, index, 1)
      if (result.status === 'passed') bump(c.passes, index, 1)
      bump(c.scoreSum, index, result.score)
      if (result.verdicts.some((verdict) => verdict.score !== undefined)) setFlag(c.flags, index, SCORED)
    }
    const transcript = result.transcript
    bump(c.latencySum, index, transcript?.latencyMs ?? result.durationMs)
    bump(c.latencyCount, index, 1)
    if (transcript) {
      if (transcript.costUsd === null) setFlag(c.flags, index, COST_UNKNOWN)
      else {
        bump(c.costSum, index, transcript.costUsd)
        bump(c.costCount, index, 1)
      }
    }
  }

  /** The weighted accuracy over every case with a verdict, read from the totals without making the cases. */
  weightedAccuracy(): WeightedAccuracy | null {
    const tally = new WeightedAccuracyTally()
    this.forEachTotals((totals) => {
      if (totals.trials > 0) tally.add(totals.weight, totals.passes / totals.trials)
    })
    return tally.result()
  }

  /**
   * Visits the totals of each case that reached a result (of `suite` under `variant` only, when given), in planned
   * order, in one record reused from case to case: aggregates over a 100k-case run without making each case's stats.
   */
  forEachTotals(visit: (totals: Readonly<CaseTotals>) => void, suite?: string, variant?: string): void {
    const c = this.#columns
    const totals: CaseTotals = { weight: 0, passes: 0, trials: 0, errored: 0, score: undefined }
    for (const entry of this.#suites) {
      if (suite !== undefined && !isOf(entry, suite, variant)) continue
      const { cases, start } = entry
      for (let at = 0; at < cases.length; at++) {
        const index = start + at
        if (!this.hasResult(index)) continue
        totals.weight = cases.weight(at)
        totals.passes = c.passes.get(index)
        totals.trials = c.graded.get(index)
        totals.errored = c.errored.get(index)
        totals.score = scoreOf(c, index)
        visit(totals)
      }
    }
  }

  /** Every case that reached a result, in the order they were planned: made as the list is read. */
  cases(): CaseStatsList {
    return new TallyCases(this, [0, this.#length])
  }

  /** The cases of one suite (under one variant) that reached a result, in the order they were planned. */
  casesOf(suite: string, variant?: string): CaseStatsList {
    const ranges = this.#suites
      .filter((entry) => isOf(entry, suite, variant))
      .flatMap(({ start, cases }) => [start, start + cases.length])
    return new TallyCases(this, ranges)
  }

  /** whether case `index` has a result */
  hasResult(index: number): boolean {
    const c = this.#columns
    return c.graded.get(index) + c.errored.get(index) + c.skipped.get(index) > 0
  }

  /** whether case `index` is a known failure (`expect_fail:`) */
  isKnownFailure(index: number): boolean {
    const { cases, start } = this.#suiteAt(index)
    return cases.marksKnownFailures && cases.expectFail(index - start) !== undefined
  }

  /** whether some case in `[from, to)` may be a known failure: none when no suite there marks one */
  mayHoldKnownFailures(from: number, to: number): boolean {
    return this.#suites.some(
      ({ cases, start }) => cases.marksKnownFailures && start < to && start + cases.length > from,
    )
  }

  /** the stats of case `index` */
  statsAt(index: number): CaseStats {
    const { name, variant, cases, start } = this.#suiteAt(index)
    return statsOf(name, variant, cases, index - start, this.#columns, index)
  }

  /** the suite, status, trials and cost of case `index`, written into `into` */
  tallyAt(index: number, into: CaseTally): void {
    const { name, variant } = this.#suiteAt(index)
    const c = this.#columns
    into.suite = name
    into.variant = variant
    into.status = statusOf(c, index)
    into.costUsd = costOf(c, index)
    into.trials = c.graded.get(index)
    into.errored = c.errored.get(index)
  }

  /** the planned suite holding case `index` */
  #suiteAt(index: number): PlannedCases {
    let low = 0
    let high = this.#suites.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((this.#suites[middle] as { start: number }).start <= index) low = middle
      else high = middle - 1
    }
    return this.#suites[low] as PlannedCases
  }

  #indexOf(suite: string, id: string, variant: string | undefined): number | undefined {
    if (this.#byKey === undefined) {
      this.#byKey = new Map()
      for (const { name, variant: planned, cases, start } of this.#suites)
        for (let index = 0; index < cases.length; index++)
          this.#byKey.set(keyOf(name, cases.id(index), planned), start + index)
    }
    return this.#byKey.get(keyOf(suite, id, variant))
  }
}

/** A suite's cases (under one variant) as planned, numbered from `start` on. */
interface PlannedCases {
  name: string
  variant: string | undefined
  cases: CaseList
  start: number
}

function isOf(entry: PlannedCases, suite: string, variant: string | undefined): boolean {
  return entry.name === suite && entry.variant === variant
}

/** What suite statistics read of a case: `CaseStats`' numbers, without its id, tags and derived rates. */
export interface CaseTotals {
  weight: number
  passes: number
  /** trials that reached a verdict */
  trials: number
  errored: number
  /** the mean score over the trials when some verdict carried a score, as `CaseStats.score` */
  score: number | undefined
}

/** A suite's cases with a result, and a visit of their totals for aggregates. */
export interface SuiteCases {
  cases: CaseStatsList
  forEachTotals: (visit: (totals: Readonly<CaseTotals>) => void) => void
}

/**
 * The cases of a tally, each made as the list is read, so a 100k-case run holds no list of them (only their indices,
 * 4 bytes a case). In summary.json and JSON.stringify it is a list.
 */
class TallyCases implements CaseStatsList {
  readonly length: number
  readonly #tally: CaseStatsTally
  readonly #ranges: readonly number[]
  /** the cases of the ranges that held a result when the list was made: counted and walked without generators */
  readonly #indices: Uint32Array

  constructor(tally: CaseStatsTally, ranges: readonly number[]) {
    this.#tally = tally
    this.#ranges = ranges
    this.#indices = withResults(tally, ranges)
    this.length = this.#indices.length
  }

  *[Symbol.iterator](): Iterator<CaseStats> {
    const indices = this.#indices
    for (let at = 0; at < indices.length; at++) yield this.#tally.statsAt(indices[at] as number)
  }

  *knownFailures(): Generator<CaseStats> {
    const ranges = this.#ranges
    const tally = this.#tally
    for (let range = 0; range < ranges.length; range += 2) {
      const from = ranges[range] as number
      const to = ranges[range + 1] as number
      if (!tally.mayHoldKnownFailures(from, to)) continue
      for (let index = from; index < to; index++)
        if (tally.hasResult(index) && tally.isKnownFailure(index)) yield tally.statsAt(index)
    }
  }

  *tallies(): Generator<Readonly<CaseTally>> {
    const record: CaseTally = { suite: '', status: 'skipped', costUsd: null, trials: 0, errored: 0 }
    const indices = this.#indices
    for (let at = 0; at < indices.length; at++) {
      this.#tally.tallyAt(indices[at] as number, record)
      yield record
    }
  }

  toJSON(): CaseStats[] {
    return [...this]
  }
}

/** The indices in `ranges` (pairs of from, to) of the cases with a result, in order. */
function withResults(tally: CaseStatsTally, ranges: readonly number[]): Uint32Array {
  let most = 0
  for (let range = 0; range < ranges.length; range += 2)
    most += (ranges[range + 1] as number) - (ranges[range] as number)
  const indices = new Uint32Array(most)
  let count = 0
  for (let range = 0; range < ranges.length; range += 2)
    for (let index = ranges[range] as number; index < (ranges[range + 1] as number); index++)
      if (tally.hasResult(index)) indices[count++] = index
  return indices.subarray(0, count)
}

function bump(column: TypedList<Uint32Array | Float64Array>, index: number, amount: number): void {
  column.set(index, column.get(index) + amount)
}

function setFlag(flags: TypedList<Uint8Array>, index: number, flag: number): void {
  flags.set(index, flags.get(index) | flag)
}

const SCORED = 1
const COST_UNKNOWN = 2

/** Running totals by case index: a few numbers per case, whatever the number of trials. */
class Columns {
  readonly passes = new TypedList(Uint32Array, 1024)
  readonly graded = new TypedList(Uint32Array, 1024)
  readonly errored = new TypedList(Uint32Array, 1024)
  readonly skipped = new TypedList(Uint32Array, 1024)
  readonly latencyCount = new TypedList(Uint32Array, 1024)
  readonly costCount = new TypedList(Uint32Array, 1024)
  readonly scoreSum = new TypedList(Float64Array, 1024)
  readonly latencySum = new TypedList(Float64Array, 1024)
  readonly costSum = new TypedList(Float64Array, 1024)
  /** SCORED: some verdict carried a score, so the case is graded rather than only checked; COST_UNKNOWN */
  readonly flags = new TypedList(Uint8Array, 1024)

  /** Makes room for cases up to index `length - 1`, their totals 0. */
  grow(length: number): void {
    for (const column of [
      this.passes,
      this.graded,
      this.errored,
      this.skipped,
      this.latencyCount,
      this.costCount,
      this.scoreSum,
      this.latencySum,
      this.costSum,
      this.flags,
    ])
      column.grow(length)
  }
}

/** The mean score of case `index` over its graded trials, when some verdict carried a score. */
function scoreOf(c: Columns, index: number): number | undefined {
  const trials = c.graded.get(index)
  return c.flags.get(index) & SCORED && trials > 0 ? round(c.scoreSum.get(index) / trials, 6) : undefined
}

/** A case's status over its trials: failed when any graded trial failed, then errored, passed, skipped. */
function statusOf(c: Columns, index: number): CaseStatus {
  const trials = c.graded.get(index)
  if (trials > c.passes.get(index)) return 'failed'
  if (c.errored.get(index) > 0) return 'errored'
  return trials > 0 ? 'passed' : 'skipped'
}

/** The mean cost of a trial of case `index`; null when some trial's cost was unknown, or none was recorded. */
function costOf(c: Columns, index: number): number | null {
  const costCount = c.costCount.get(index)
  return c.flags.get(index) & COST_UNKNOWN || costCount === 0
    ? null
    : round(c.costSum.get(index) / costCount, 10)
}

/**
 * The stats of case `at` of `cases`, case `index` of the columns. Built key by key in summary.json's key order:
 * a literal with conditional spreads costs a runtime call per spread, which shows over 10k cases made once each.
 */
function statsOf(
  suite: string,
  variant: string | undefined,
  cases: CaseList,
  at: number,
  c: Columns,
  index: number,
): CaseStats {
  const passes = c.passes.get(index)
  const trials = c.graded.get(index)
  const latencyCount = c.latencyCount.get(index)
  const score = scoreOf(c, index)
  const critical = cases.critical(at)
  const expectFail = cases.expectFail(at)
  const stats: Partial<CaseStats> = {
    id: cases.id(at),
    inputHash: cases.inputHash(at),
    tags: cases.tags(at),
    passes,
    trials,
  }
  if (score !== undefined) stats.score = score
  // rounded so committed baselines do not churn on sub-millisecond noise
  stats.latencyMs = latencyCount === 0 ? 0 : round(c.latencySum.get(index) / latencyCount, 1)
  stats.costUsd = costOf(c, index)
  stats.status = statusOf(c, index)
  stats.suite = suite
  if (variant !== undefined) stats.variant = variant
  stats.weight = cases.weight(at)
  if (critical !== undefined) stats.critical = critical
  if (expectFail !== undefined) stats.expectFail = expectFail
  stats.errored = c.errored.get(index)
  stats.passRate = trials === 0 ? null : passes / trials
  stats.passAtK = trials === 0 ? null : passAtK(trials, passes, trials)
  stats.passHatK = trials === 0 ? null : passHatK(trials, passes, trials)
  stats.flaky = isFlaky(passes, trials)
  return stats as CaseStats
}

/** The baseline's view of a case: exactly the `CaseSummary` fields, so strict schemas accept it. */
export function toCaseSummary(stats: CaseStats): CaseSummary {
  return {
    id: stats.id,
    inputHash: stats.inputHash,
    tags: stats.tags,
    passes: stats.passes,
    trials: stats.trials,
    ...(stats.score !== undefined && { score: stats.score }),
    latencyMs: stats.latencyMs,
    costUsd: stats.costUsd,
    status: stats.status,
    weight: stats.weight,
    ...(stats.critical !== undefined && { critical: stats.critical }),
    ...(stats.expectFail !== undefined && { expectFail: stats.expectFail }),
  }
}

function keyOf(suite: string, id: string, variant: string | undefined): string {
  return variant === undefined ? `${suite}\u0000${id}` : `${suite}\u0000${id}\u0000${variant}`
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}
