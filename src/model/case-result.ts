import type { Verdict } from '../evaluators/evaluator.ts'
import type { Transcript } from '../types.ts'

/** A verdict with the evaluator that gave it. */
export interface NamedVerdict extends Verdict {
  /** the evaluator's case-file name, e.g. `tool`, `contains` */
  evaluator: string
  /** its share of the case score @default 1 */
  weight: number
  /** the conversation turn (1-based) whose reply it checked; absent for a check of the whole case */
  turn?: number
}

/** One turn of a conversation case (`turns:` or `simulated_user:`): the user message and the target's reply. */
export interface ConversationTurn {
  user: string
  /** the target's reply */
  output: string
  /** names of the tools the target called in this turn, in call order; null when it does not report them */
  tools: string[] | null
  latencyMs: number
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

/** How a case's output compares with its stored snapshot (`snapshot:` in the case file, `--update-snapshots`). */
export interface SnapshotOutcome {
  /** `new`: stored now; `changed`: differs (reported, fails only with `snapshot: strict`); `updated`: differed and was replaced */
  status: 'new' | 'unchanged' | 'changed' | 'updated'
  /** the snapshot file, relative to the working directory */
  file: string
  /** unified diff from the snapshot to the current output, for `changed` and `updated` */
  diff?: string
}

interface CaseResultBase {
  suite: string
  /** the variant the pair ran under, when the suite has variants (`variants:`, several `--model`) */
  variant?: string
  caseId: string
  /** 0-based trial index */
  trial: number
  tags: string[]
  /** the case's weight in the weighted accuracy */
  weight: number
  /** target plus evaluators, wall clock */
  durationMs: number
  /** the case is a known failure (`expect_fail:`, `true` or its reason): reports show its failures as such */
  expectFail?: true | string
}

/** The outcome of one (case, trial) pair. Infrastructure failures are `errored`, never `failed`. */
export type CaseResult =
  | (CaseResultBase & {
      status: 'passed' | 'failed'
      /**
       * set on a pass when some checks were skipped (an LLM judge with no judge model): the case passed only the
       * checks that ran, and `verdicts` says which did not
       */
      partial?: true
      /** weighted mean of the verdicts' scores (a pass without a score counts 1) */
      score: number
      verdicts: NamedVerdict[]
      transcript: Transcript
      /** the conversation turn by turn, for a conversation case; each turn's checks are the verdicts with its `turn` */
      turns?: ConversationTurn[]
      /** the output against its stored snapshot, for a snapshot case */
      snapshot?: SnapshotOutcome
    })
  | (CaseResultBase & {
      /** the target threw, timed out or reported an error, or an evaluator threw */
      status: 'errored'
      error: SerializedError
      /** verdicts of the evaluators that did finish */
      verdicts: NamedVerdict[]
      transcript?: Transcript
      /** the turns that finished, for a conversation case */
      turns?: ConversationTurn[]
    })
  | (CaseResultBase & { status: 'skipped'; reason: string })

export type CaseStatus = CaseResult['status']
