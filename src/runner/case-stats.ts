import { hashInput } from '../baselines/hash.ts'
import type { CaseStatus, CaseSummary } from '../baselines/summary.ts'
import type { CaseDefinition } from '../cases/suite.ts'
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

/** Running totals of one case: a few numbers, whatever the number of trials. */
interface CaseTally {
  readonly suite: string
  readonly id: string
  readonly tags: readonly string[]
  readonly weight: number
  readonly inputHash: string
  passes: number
  graded: number
  errored: number
  skipped: number
  scoreSum: number
  /** some verdict carried a score, so the case is graded rather than only checked */
  scored: boolean
  latencySum: number
  latencyCount: number
  costSum: number
  costCount: number
  costUnknown: boolean
}

/** Per-case aggregates of a run, filled online from CaseResults; cases must be registered with `plan` first. */
export class CaseStatsTally {
  readonly #cases = new Map<string, CaseTally>()

  /** Registers a case before it runs; its input hash is `hashInput({ input, vars })` after rendering. */
  plan(suite: string, caseDef: CaseDefinition): void {
    const inputHash = hashInput({ input: caseDef.input, vars: caseDef.vars })
    this.#cases.set(keyOf(suite, caseDef.id), {
      suite,
      id: caseDef.id,
      tags: caseDef.tags,
      weight: caseDef.weight,
      inputHash,
      passes: 0,
      graded: 0,
      errored: 0,
      skipped: 0,
      scoreSum: 0,
      scored: false,
      latencySum: 0,
      latencyCount: 0,
      costSum: 0,
      costCount: 0,
      costUnknown: false,
    })
  }

  add(result: CaseResult): void {
    const tally = this.#cases.get(keyOf(result.suite, result.caseId))
    if (tally === undefined) return
    if (result.status === 'skipped') {
      tally.skipped++
      return
    }
    if (result.status === 'errored') tally.errored++
    else {
      tally.graded++
      if (result.status === 'passed') tally.passes++
      tally.scoreSum += result.score
      if (result.verdicts.some((verdict) => verdict.score !== undefined)) tally.scored = true
    }
    const transcript = result.transcript
    tally.latencySum += transcript?.latencyMs ?? result.durationMs
    tally.latencyCount++
    if (transcript) {
      if (transcript.costUsd === null) tally.costUnknown = true
      else {
        tally.costSum += transcript.costUsd
        tally.costCount++
      }
    }
  }

  /** Every case that reached a result, in the order they were planned. */
  cases(): CaseStats[] {
    const out: CaseStats[] = []
    for (const tally of this.#cases.values()) {
      if (tally.graded + tally.errored + tally.skipped > 0) out.push(statsOf(tally))
    }
    return out
  }
}

function statsOf(tally: CaseTally): CaseStats {
  const { passes, graded: trials } = tally
  const status: CaseStatus =
    trials > passes ? 'failed' : tally.errored > 0 ? 'errored' : trials > 0 ? 'passed' : 'skipped'
  const cost = tally.costUnknown || tally.costCount === 0 ? null : round(tally.costSum / tally.costCount, 10)
  return {
    id: tally.id,
    inputHash: tally.inputHash,
    tags: tally.tags,
    passes,
    trials,
    ...(tally.scored && trials > 0 && { score: round(tally.scoreSum / trials, 6) }),
    // rounded so committed baselines do not churn on sub-millisecond noise
    latencyMs: tally.latencyCount === 0 ? 0 : round(tally.latencySum / tally.latencyCount, 1),
    costUsd: cost,
    status,
    suite: tally.suite,
    weight: tally.weight,
    errored: tally.errored,
    passRate: trials === 0 ? null : passes / trials,
    passAtK: trials === 0 ? null : passAtK(trials, passes, trials),
    passHatK: trials === 0 ? null : passHatK(trials, passes, trials),
    flaky: isFlaky(passes, trials),
  }
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
