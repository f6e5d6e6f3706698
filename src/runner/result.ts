import type { Verdict } from '../evaluators/evaluator.ts'
import type { Transcript, Usage } from '../types.ts'

/** A verdict with the evaluator that gave it. */
export interface NamedVerdict extends Verdict {
  /** the evaluator's case-file name, e.g. `tool`, `contains` */
  evaluator: string
  /** its share of the case score @default 1 */
  weight: number
}

/** An error as it goes into results files: plain data. */
export interface SerializedError {
  name: string
  message: string
  /** stable code of an EvalsError, e.g. `EVALS_TIMEOUT` */
  code?: string
  /** only for errors that are not EvalsErrors (likely bugs in user code) */
  stack?: string
}

interface CaseResultBase {
  suite: string
  caseId: string
  /** 0-based trial index */
  trial: number
  tags: string[]
  /** the case's weight in the weighted accuracy */
  weight: number
  /** target plus evaluators, wall clock */
  durationMs: number
}

/** The outcome of one (case, trial) pair. Infrastructure failures are `errored`, never `failed`. */
export type CaseResult =
  | (CaseResultBase & {
      status: 'passed' | 'failed'
      /** weighted mean of the verdicts' scores (a pass without a score counts 1) */
      score: number
      verdicts: NamedVerdict[]
      transcript: Transcript
    })
  | (CaseResultBase & {
      /** the target threw, timed out or reported an error, or an evaluator threw */
      status: 'errored'
      error: SerializedError
      /** verdicts of the evaluators that did finish */
      verdicts: NamedVerdict[]
      transcript?: Transcript
    })
  | (CaseResultBase & { status: 'skipped'; reason: string })

export type CaseStatus = CaseResult['status']

/** What reporters learn before the first case runs. */
export interface RunInfo {
  runId: string
  /** ISO time */
  startedAt: string
  suites: { name: string; file: string; targetId: string; model?: string }[]
  /** (case, trial) pairs to run, skipped cases counted once */
  total: number
  concurrency: number
  /** `reports/<run-id>`: results.jsonl and summary.json go there */
  dir: string
}

/** A failing or errored pair, kept for the summary without its transcript. */
export interface CaseProblem {
  suite: string
  caseId: string
  trial: number
  status: 'failed' | 'errored'
  /** the failing verdicts, or the error as the only entry */
  reasons: { evaluator: string; reason: string }[]
}

/** Aggregates of a run, computed as results arrive. */
export interface RunReport extends RunInfo {
  durationMs: number
  counts: Record<CaseStatus, number>
  /** weighted share of passed among passed + failed pairs; null when none was graded */
  accuracy: number | null
  /** target latency of the pairs that ran, nearest-rank percentiles; null when none ran */
  latencyMs: { p50: number; p95: number; p99: number } | null
  usage: Usage
  /** sum of the known costs; null when no pair had a known cost */
  costUsd: number | null
  /** pairs that ran but whose cost is unknown (never counted as 0) */
  unknownCostCount: number
  /** the first failing and errored pairs (at most 100, so memory stays flat) */
  problems: CaseProblem[]
  /** failing and errored pairs beyond `problems` */
  moreProblems: number
  /** pairs never finished because of `bail` or an interrupt */
  notRun: number
  stoppedBy?: 'bail' | 'interrupt'
  resultsFile: string
}
