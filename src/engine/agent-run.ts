import type {
  InputPart,
  IterationReasoning,
  Message,
  StopReason,
  ToolCallRecord,
  TraceStep,
  Turn,
  Usage,
} from '../types.ts'
import type { ToolChoice } from '../providers/provider.ts'
import type { AgentUsage } from './agents/agent-usage.ts'
import type { SubRunLink } from './agents/sub-run.ts'
import type { PendingApproval, RunState } from './approvals/approval.ts'
import type { GuardrailTrip } from './guardrails/guardrail.ts'

/** What one call of `run` takes besides the input. */
export interface RunOptions<Deps = unknown> {
  /** earlier messages of the conversation, continued by this run */
  history?: readonly Message[]
  signal?: AbortSignal
  /** overrides the agent's deps for this run */
  deps?: Deps
  /** part of the response-cache key, so repeated trials do not share answers @default 0 */
  trial?: number
  /** the conversation to load before the run and save after it, in the agent's `sessions` store */
  sessionId?: string
  /** overrides the agent's `toolChoice` for this run */
  toolChoice?: ToolChoice
  /**
   * the tool call this run is part of (its `ctx`): the run's usage and cost join that run's, its trace becomes an
   * `agent_run` step there, and its spans are children of the call's span
   */
  parent?: { readonly '~run'?: SubRunLink }
}

/**
 * Every option of `RunOptions`, the one list `run()`, `stream()` and `batch()` check options against. TypeScript
 * requires each option here, so a new option is one line in each.
 */
export const RUN_OPTION_KEYS: Record<keyof RunOptions, true> = {
  history: true,
  signal: true,
  deps: true,
  trial: true,
  sessionId: true,
  toolChoice: true,
  parent: true,
}

/** A turn of input; a user turn may be content parts (text, images, files). */
export type AgentTurn = Turn | { role: 'user'; content: readonly InputPart[] }

/** A user message (text, or content parts with images and files), or a conversation of turns. */
export type AgentInput = string | readonly InputPart[] | readonly AgentTurn[]

/** The final output an output validator sees: the parsed value with an `output` schema, else the reply text. */
export type FinalOutput<Output> = [Output] extends [undefined] ? string : Output

/** A structured output as it streams: any field may be missing yet. */
export type PartialOutput<Output> = [Output] extends [undefined]
  ? unknown
  : Output extends readonly (infer Item)[]
    ? PartialOutput<Item>[]
    : Output extends object
      ? { [Key in keyof Output]?: PartialOutput<Output[Key]> }
      : Output

/** Everything one agent run produced. */
export interface AgentResult<Output = undefined> {
  runId: string
  /** the final text (or the terminal tool's result as text) */
  output: string
  /** the validated structured output; undefined without `output` or when it never validated */
  parsed: Output | undefined
  toolCalls: ToolCallRecord[]
  /** the whole conversation, history included */
  messages: Message[]
  trace: TraceStep[]
  usage: Usage
  /** model requests made, cache hits included */
  requests: number
  /** null when any model's price is unknown */
  costUsd: number | null
  /** model calls made in the loop */
  iterations: number
  stopReason: StopReason
  /** what the model showed of its thinking, one entry per model call in order (`iterations` of them) */
  reasoning: IterationReasoning[]
  /** id of the provider that produced the last reply (differs from the configured one after a fallback) */
  providerUsed: string
  /** why the run stopped, for every stop but `final` and `terminal_tool` */
  error?: string
  durationMs: number
  /** marks a result of this engine, so checks can trust its tool calls (e.g. `is_valid_tool_call`) */
  source: 'engine'
  /** the agent that answered last: the one run, or the one a handoff moved the conversation to */
  lastAgent: string
  /** the calls waiting for approval, when `stopReason` is `interrupted` */
  interruptions?: PendingApproval[]
  /** the run as JSON data, when `stopReason` is `interrupted`: `agent.resume(result.state, decisions)` */
  state?: RunState
  /** the guardrail that blocked the run, when `stopReason` is `guardrail` */
  guardrail?: GuardrailTrip
  /** per agent, what each spent, when several agents took part (handoffs, agents as tools); totals are above */
  usageByAgent?: Record<string, AgentUsage>
}

/** Events of `agent.stream()`, ending with the result. */
export type AgentEvent<Output = undefined> =
  | { type: 'text-delta'; text: string; iteration: number }
  /**
   * with an `output` schema, what parses of the reply so far, each time it grows (strings may be cut short); not
   * validated: the final `parsed` in the result is
   */
  | { type: 'partial-output'; partial: PartialOutput<Output>; iteration: number }
  /** the model's reasoning as it streams, for APIs that show it */
  | { type: 'reasoning-delta'; text: string; iteration: number }
  | { type: 'tool-call'; callId: string; name: string; args: unknown }
  | { type: 'tool-chunk'; callId: string; name: string; chunk: unknown }
  | { type: 'tool-result'; callId: string; name: string; ok: boolean; result?: unknown; error?: string }
  | { type: 'result'; result: AgentResult<Output> }
