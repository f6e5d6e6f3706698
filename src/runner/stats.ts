import { addUsage, emptyUsage, type Usage } from '../types.ts'
import type { CaseProblem, CaseResult, CaseStatus, RunReport } from './result.ts'

const MAX_PROBLEMS = 100

/** Online aggregates of a run: constant memory per result except one float per latency sample. */
export class RunStats {
  readonly counts: Record<CaseStatus, number> = { passed: 0, failed: 0, errored: 0, skipped: 0 }
  usage: Usage = emptyUsage()
  readonly problems: CaseProblem[] = []
  moreProblems = 0
  #passedWeight = 0
  #gradedWeight = 0
  #knownCost = 0
  #knownCostCount = 0
  #unknownCostCount = 0
  #latencies = new Float64Array(1024)
  #latencyCount = 0

  add(result: CaseResult): void {
    this.counts[result.status]++
    if (result.status === 'skipped') return
    if (result.status !== 'errored') {
      this.#gradedWeight += result.weight
      if (result.status === 'passed') this.#passedWeight += result.weight
    }
    const transcript = result.transcript
    if (transcript) {
      this.#addLatency(transcript.latencyMs)
      this.usage = addUsage(this.usage, transcript.usage)
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
    | 'latencyMs'
    | 'usage'
    | 'costUsd'
    | 'unknownCostCount'
    | 'problems'
    | 'moreProblems'
  > {
    return {
      counts: { ...this.counts },
      accuracy: this.#gradedWeight === 0 ? null : this.#passedWeight / this.#gradedWeight,
      latencyMs: this.#percentiles(),
      usage: this.usage,
      costUsd: this.#knownCostCount === 0 ? null : this.#knownCost,
      unknownCostCount: this.#unknownCostCount,
      problems: this.problems,
      moreProblems: this.moreProblems,
    }
  }

  #addLatency(ms: number): void {
    if (this.#latencyCount === this.#latencies.length) {
      const grown = new Float64Array(this.#latencies.length * 2)
      grown.set(this.#latencies)
      this.#latencies = grown
    }
    this.#latencies[this.#latencyCount++] = ms
  }

  #percentiles(): RunReport['latencyMs'] {
    if (this.#latencyCount === 0) return null
    const sorted = this.#latencies.slice(0, this.#latencyCount).sort()
    const at = (p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
    return { p50: at(50), p95: at(95), p99: at(99) }
  }

  #addProblem(result: Exclude<CaseResult, { status: 'skipped' }>): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      this.moreProblems++
      return
    }
    const reasons =
      result.status === 'errored'
        ? [{ evaluator: 'error', reason: `${result.error.name}: ${result.error.message}` }]
        : result.verdicts.filter((v) => !v.pass).map((v) => ({ evaluator: v.evaluator, reason: v.reason }))
    const { suite, caseId, trial } = result
    this.problems.push({
      suite,
      caseId,
      trial,
      status: result.status === 'errored' ? 'errored' : 'failed',
      reasons,
    })
  }
}
