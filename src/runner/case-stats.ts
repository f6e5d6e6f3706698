import { hashInput } from '../baselines/hash.ts'
import type { CaseStatus, CaseSummary } from '../baselines/summary.ts'
import type { CaseDefinition } from '../cases/suite.ts'
import type { WeightedRate } from '../stats/proportion.ts'
import { isFlaky, passAtK, passHatK } from '../stats/trials.ts'
import type { CaseResult } from './result.ts'

/** One case aggregated over its trials: the baseline's `CaseSummary` plus the trial statistics. */
export interface CaseStats extends CaseSummary {
  suite: string
  /** the case's weight in the weighted accuracy */
  weight: number
  /** trials that errored (infrastructure); they are not counted in `trials` */
  errored: number
  /** passes / trials; null when no trial reached a verdict */
  passRate: number | null
  /** unbiased pass@k with k = `trials`: the chance at least one of k trials passes; null without a verdict */
  passAtK: number | null
  /** pass^k with k = `trials`: the chance k fresh trials all pass, (passes / trials)^k; null without a verdict */
  passHatK: number | null
  /** some, but not all, trials passed */
  flaky: boolean
}

/**
 * Per-case aggregates of a run, filled online from CaseResults; cases must be registered with `plan` first. Totals
 * live in typed columns (about 50 bytes a case) beside a reference to the case, so 100k-case runs stay small.
 */
export class CaseStatsTally {
  readonly #cases: { suite: string; caseDef: CaseDefinition }[] = []
  /** each case's input hash, made the first time its stats are read */
  readonly #inputHashes: (string | undefined)[] = []
  /** the planned index ranges of each suite, in pairs (a suite name planned twice has two) */
  readonly #ranges = new Map<string, number[]>()
  #byKey: Map<string, number> | undefined
  #columns = new Columns(1024)

  /** Registers a case before it runs; returns its index for `add`. */
  plan(suite: string, caseDef: CaseDefinition): number {
    const index = this.#cases.length
    this.#cases.push({ suite, caseDef })
    if (index === this.#columns.capacity) this.#columns = this.#columns.grown()
    this.#byKey?.set(keyOf(suite, caseDef.id), index)
    const ranges = this.#ranges.get(suite)
    if (ranges?.[ranges.length - 1] === index) ranges[ranges.length - 1] = index + 1
    else if (ranges) ranges.push(index, index + 1)
    else this.#ranges.set(suite, [index, index + 1])
    return index
  }

  /** Adds one pair's result; `index` is what `plan` returned for its case, found by suite and id when absent. */
  add(result: CaseResult, index = this.#indexOf(result.suite, result.caseId)): void {
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

  /** Every case that reached a result, in the order they were planned: made as the list is read. */
  cases(): CaseStatsList {
    return new TallyCases(this, [0, this.#cases.length])
  }

  /** The cases of one suite that reached a result, in the order they were planned. */
  casesOf(suite: string): CaseStatsList {
    return new TallyCases(this, this.#ranges.get(suite) ?? [])
  }

  /** @internal whether case `index` has a result */
  hasResult(index: number): boolean {
    const c = this.#columns
    return (c.graded[index] ?? 0) + (c.errored[index] ?? 0) + (c.skipped[index] ?? 0) > 0
  }

  /** @internal the stats of case `index` */
  statsAt(index: number): CaseStats {
    const { suite, caseDef } = this.#cases[index] as { suite: string; caseDef: CaseDefinition }
    const inputHash = (this.#inputHashes[index] ??= hashInput({ input: caseDef.input, vars: caseDef.vars }))
    return statsOf(suite, caseDef, inputHash, this.#columns, index)
  }

  #indexOf(suite: string, id: string): number | undefined {
    if (this.#byKey === undefined) {
      this.#byKey = new Map()
      for (const [index, entry] of this.#cases.entries())
        this.#byKey.set(keyOf(entry.suite, entry.caseDef.id), index)
    }
    return this.#byKey.get(keyOf(suite, id))
  }
}

/** Cases with their stats, in run order: iterate it as often as needed, or spread it into an array. */
export interface CaseStatsList extends Iterable<CaseStats> {
  /** how many cases it yields */
  readonly length: number
}

/**
 * The cases of a tally, each made as the list is read, so a 100k-case run holds no list of them. In summary.json
 * and JSON.stringify it is a list.
 */
class TallyCases implements CaseStatsList {
  readonly length: number
  readonly #tally: CaseStatsTally
  readonly #ranges: readonly number[]

  constructor(tally: CaseStatsTally, ranges: readonly number[]) {
    this.#tally = tally
    this.#ranges = ranges
    let length = 0
    for (const index of this.#indexes()) if (tally.hasResult(index)) length++
    this.length = length
  }

  *[Symbol.iterator](): Iterator<CaseStats> {
    for (const index of this.#indexes()) if (this.#tally.hasResult(index)) yield this.#tally.statsAt(index)
  }

  toJSON(): CaseStats[] {
    return [...this]
  }

  *#indexes(): Generator<number> {
    for (let range = 0; range < this.#ranges.length; range += 2)
      for (let index = this.#ranges[range] as number; index < (this.#ranges[range + 1] as number); index++)
        yield index
  }
}

function bump(column: Uint32Array | Float64Array, index: number, amount: number): void {
  column[index] = (column[index] ?? 0) + amount
}

function setFlag(flags: Uint8Array, index: number, flag: number): void {
  flags[index] = (flags[index] ?? 0) | flag
}

const SCORED = 1
const COST_UNKNOWN = 2

/** Running totals by case index: a few numbers per case, whatever the number of trials. */
class Columns {
  readonly passes: Uint32Array
  readonly graded: Uint32Array
  readonly errored: Uint32Array
  readonly skipped: Uint32Array
  readonly latencyCount: Uint32Array
  readonly costCount: Uint32Array
  readonly scoreSum: Float64Array
  readonly latencySum: Float64Array
  readonly costSum: Float64Array
  /** SCORED: some verdict carried a score, so the case is graded rather than only checked; COST_UNKNOWN */
  readonly flags: Uint8Array

  readonly capacity: number

  constructor(capacity: number) {
    this.capacity = capacity
    this.passes = new Uint32Array(capacity)
    this.graded = new Uint32Array(capacity)
    this.errored = new Uint32Array(capacity)
    this.skipped = new Uint32Array(capacity)
    this.latencyCount = new Uint32Array(capacity)
    this.costCount = new Uint32Array(capacity)
    this.scoreSum = new Float64Array(capacity)
    this.latencySum = new Float64Array(capacity)
    this.costSum = new Float64Array(capacity)
    this.flags = new Uint8Array(capacity)
  }

  grown(): Columns {
    const next = new Columns(this.capacity * 2)
    for (const key of COLUMN_KEYS) next[key].set(this[key])
    return next
  }
}

const COLUMN_KEYS = [
  'passes',
  'graded',
  'errored',
  'skipped',
  'latencyCount',
  'costCount',
  'scoreSum',
  'latencySum',
  'costSum',
  'flags',
] as const

function statsOf(
  suite: string,
  caseDef: CaseDefinition,
  inputHash: string,
  c: Columns,
  index: number,
): CaseStats {
  const passes = c.passes[index] as number
  const trials = c.graded[index] as number
  const errored = c.errored[index] as number
  const flags = c.flags[index] as number
  const latencyCount = c.latencyCount[index] as number
  const costCount = c.costCount[index] as number
  const status: CaseStatus =
    trials > passes ? 'failed' : errored > 0 ? 'errored' : trials > 0 ? 'passed' : 'skipped'
  const cost =
    flags & COST_UNKNOWN || costCount === 0 ? null : round((c.costSum[index] as number) / costCount, 10)
  return {
    id: caseDef.id,
    inputHash,
    tags: caseDef.tags,
    passes,
    trials,
    ...(flags & SCORED && trials > 0 && { score: round((c.scoreSum[index] as number) / trials, 6) }),
    // rounded so committed baselines do not churn on sub-millisecond noise
    latencyMs: latencyCount === 0 ? 0 : round((c.latencySum[index] as number) / latencyCount, 1),
    costUsd: cost,
    status,
    suite,
    weight: caseDef.weight,
    errored,
    passRate: trials === 0 ? null : passes / trials,
    passAtK: trials === 0 ? null : passAtK(trials, passes, trials),
    passHatK: trials === 0 ? null : passHatK(trials, passes, trials),
    flaky: isFlaky(passes, trials),
  }
}

/** The weights and pass rates of the cases with a verdict, what weighted accuracy is computed from. */
export function gradedRates(cases: Iterable<CaseStats>): WeightedRate[] {
  const rates: WeightedRate[] = []
  for (const entry of cases)
    if (isGraded(entry)) rates.push({ weight: entry.weight, passRate: entry.passRate })
  return rates
}

/** A case with a verdict in some trial, so it has a pass rate. */
export function isGraded(stats: CaseStats): stats is CaseStats & { passRate: number } {
  return stats.passRate !== null
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
  }
}

function keyOf(suite: string, id: string): string {
  return `${suite}\u0000${id}`
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}
