import type { GuardrailStage } from '../../types.ts'

/** What a guardrail is told besides the text. */
export interface GuardrailContext<Deps = unknown> {
  stage: GuardrailStage
  runId: string
  /** the agent answering */
  agent: string
  deps: Deps
  /** the tool whose result is screened, at stage `tool_result` */
  tool?: string
}

/**
 * A guardrail's decision. `block` ends the run with `stopReason: 'guardrail'` (the blocked text never becomes the
 * output, nor reaches the model); `rewrite` replaces the text (the next guardrail sees the new one); `warn` lets the
 * text through and records why.
 */
export type GuardrailVerdict =
  | { action: 'pass'; reason?: string }
  | { action: 'block'; reason: string }
  | { action: 'rewrite'; text: string; reason: string }
  | { action: 'warn'; reason: string }

/**
 * Screens one text: the user's input, a tool's result before the model sees it, or the final output. A guardrail that
 * throws blocks, so a broken check never lets a text through.
 */
export interface Guardrail<Deps = unknown> {
  /** shown in the trace, events and `result.guardrail` */
  readonly name: string
  check(text: string, context: GuardrailContext<Deps>): GuardrailVerdict | Promise<GuardrailVerdict>
}

/** The agent's guardrails per stage, run in order; each decision is a `guardrail` trace step and an event. */
export interface GuardrailOptions<Deps = unknown> {
  /** the run's new user messages, before the first model call */
  input?: readonly Guardrail<Deps>[]
  /** each tool result, before it is sent to the model */
  toolResults?: readonly Guardrail<Deps>[]
  /** the final output (a final answer, a terminal tool's result, the last text of a stopped run), before it is returned */
  output?: readonly Guardrail<Deps>[]
}

/** The guardrail that blocked a run: `result.guardrail`. */
export interface GuardrailTrip {
  stage: GuardrailStage
  name: string
  reason: string
  /** the tool whose result was blocked */
  tool?: string
}

/** The action a built-in guardrail takes when it finds something. */
export type GuardrailReaction = 'block' | 'rewrite' | 'warn'
