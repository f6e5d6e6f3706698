import type { CaseList } from '../../cases/suite.ts'
import { percentiles } from '../../stats/percentile.ts'
import { addUsage, emptyUsage, type Usage } from '../../types.ts'
import { TypedList } from '../../util/typed-list.ts'
import { CaseStatsTally, type SuiteCases } from './case-stats.ts'
import { checkName } from '../../report-file/check-name.ts'
import type { CaseResult, NamedVerdict } from '../../model/case-result.ts'
import type { CaseProblem, JudgeTotals, RunCounts, RunReport } from '../../model/run-report.ts'

const MAX_PROBLEMS = 100

/** Online aggregates of a run: a small record per case, and one float per latency sample. */
export class RunStats {
  readonly counts: RunCounts = { passed: 0, failed: 0, errored: 0, skipped: 0, partial: 0 }
  usage: Usage = emptyUsage()
  readonly problems: CaseProblem[] = []
  moreProblems = 0
  readonly #cases = new CaseStatsTally()
  #knownCost = 0
  readonly #judges: JudgeTotals = { verdicts: 0, usage: emptyUsage(), costUsd: null }
  #judgeCostUnknown = false
  #knownCostCount = 0
  #unknownCostCount = 0
  #unknownUsageCount = 0
  readonly #latencies = new TypedList(Float64Array, 1024)

  /** Registers a suite's cases before their first results arrive; case `i` of the list is then case `start + i`. */
  plan(suite: string, cases: CaseList, variant?: string): { start: number } {
    return this.#cases.plan(suite, cases, variant)
  }

  /** Adds one pair's result; `caseIndex` is what `plan` returned, else the case is found by suite and id. */
  add(result: CaseResult, caseIndex?: number): void {
    this.counts[result.status]++
    if (result.status === 'passed' && result.partial) this.counts.partial = (this.counts.partial ?? 0) + 1
    this.#cases.add(result, caseIndex)
    if (result.status === 'skipped') return
    this.#addJudges(result.verdicts)
    const transcript = result.transcript
    if (transcript) {
      this.#latencies.push(transcript.latencyMs)
      if (transcript.usage === null) this.#unknownUsageCount++
      else this.usage = addUsage(this.usage, transcript.usage)
      if (transcript.costUsd === null) this.#unknownCostCount++
      else {
        this.#knownCost += transcript.costUsd
        this.#knownCostCount++
      }
    }
    if (result.status !== 'passed') this.#addProblem(result)
  }

  summary(): Pick<
    RunReport,
    | 'counts'
    | 'accuracy'
    | 'weightedAccuracy'
    | 'cases'
    | 'latencyMs'
    | 'usage'
    | 'costUsd'
    | 'unknownCostCount'
    | 'unknownUsageCount'
    | 'judges'
    | 'problems'
    | 'moreProblems'
  > {
    const cases = this.#cases.cases()
    const accuracy = this.#cases.weightedAccuracy()
    return {
      counts: { ...this.counts },
      accuracy: accuracy?.accuracy ?? null,
      weightedAccuracy: accuracy,
      cases,
      latencyMs: this.#percentiles(),
      usage: this.usage,
      costUsd: this.#knownCostCount === 0 ? null : this.#knownCost,
      unknownCostCount: this.#unknownCostCount,
      unknownUsageCount: this.#unknownUsageCount,
      judges: { ...this.#judges, costUsd: this.#judgeCostUnknown ? null : this.#judges.costUsd },
      problems: this.problems,
      moreProblems: this.moreProblems,
    }
  }

  /** The cases of one suite (under one variant) that reached a result, and a visit of their totals without making each case. */
  casesOf(suite: string, variant?: string): SuiteCases {
    return {
      cases: this.#cases.casesOf(suite, variant),
      forEachTotals: (visit) => {
        this.#cases.forEachTotals(visit, suite, variant)
      },
    }
  }

  /** Judge verdicts carry their own usage and cost in `details`; they never count as the target's. */
  #addJudges(verdicts: readonly NamedVerdict[]): void {
    for (const { details } of verdicts) {
      if (
        typeof details?.judgeModel !== 'string' ||
        typeof details.usage !== 'object' ||
        details.usage === null
      )
        continue
      this.#judges.verdicts++
      this.#judges.usage = addUsage(this.#judges.usage, details.usage as Usage)
      const cost = details.costUsd
      if (typeof cost === 'number') this.#judges.costUsd = (this.#judges.costUsd ?? 0) + cost
      else this.#judgeCostUnknown = true
    }
  }

  #percentiles(): RunReport['latencyMs'] {
    return percentiles(this.#latencies.view())
  }

  #addProblem(result: Exclude<CaseResult, { status: 'skipped' }>): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      this.moreProblems++
      return
    }
    const reasons =
      result.status === 'errored'
        ? [{ evaluator: 'error', reason: `${result.error.name}: ${result.error.message}` }]
        : result.verdicts.filter((v) => !v.pass).map((v) => ({ evaluator: checkName(v), reason: v.reason }))
    const { suite, variant, caseId, trial } = result
    this.problems.push({
      suite,
      ...(variant !== undefined && { variant }),
      caseId,
      trial,
      status: result.status === 'errored' ? 'errored' : 'failed',
      reasons,
    })
  }
}
