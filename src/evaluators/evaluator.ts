import type { Transcript } from '../types.ts'

/** The outcome of one evaluator on one transcript. */
export interface Verdict {
  pass: boolean
  /** 0..1 when the evaluator grades rather than checks */
  score?: number
  /** one line a reviewer can act on: what was expected, what was seen */
  reason: string
  /**
   * the check did not run (an LLM judge with no judge model configured): a skipped verdict neither passes nor
   * fails the case, and `pass` is false so that it can never count as passed; `reason` names the setting to fix
   */
  skipped?: boolean
  /** structured evidence for reports (expected/actual values, matched items, judge reasons…) */
  details?: Record<string, unknown>
}

/** What an evaluator may use besides the transcript. */
export interface EvaluatorContext {
  caseId: string
  /** 0-based trial index */
  trial: number
  signal: AbortSignal
  /** the case's template variables, after rendering */
  vars: Record<string, unknown>
  /**
   * when the case's timeout falls, on the `performance.now()` clock; a check that runs user code synchronously
   * (a `custom:` check) is stopped there even when it never yields to the event loop
   */
  readonly deadline?: number
}

/** Judges one transcript against one expectation. Returns a verdict; throws only on misuse or infrastructure failure. */
export interface Evaluator {
  /** the case-file name of the check, e.g. `tool`, `contains`, `trajectory` */
  readonly name: string
  /** contributes this much to the case score @default 1 */
  readonly weight?: number
  /**
   * true when it calls a model (an LLM judge, an embedding model): the runner then keeps the pair's concurrency slot
   * until it is done (see `waitsForBatch`)
   */
  readonly usesModel?: boolean
  /**
   * true when it checks why the agent stopped (`stop_reason`); the runner then leaves the agent's own stops
   * (max iterations, truncated, …) to it instead of failing the case on them
   */
  readonly gradesStop?: boolean
  /**
   * true when its verdict waits for a batch it shares with other pairs' checks (`custom:` checks of one turn run
   * together under one watchdog): the runner lets another pair start meanwhile, so batches fill
   */
  readonly waitsForBatch?: boolean
  evaluate(transcript: Transcript, context: EvaluatorContext): Verdict | Promise<Verdict>
}
