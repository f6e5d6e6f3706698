import type { Message, StopReason, ToolCallRecord, TraceStep, Turn, Usage } from '../types.ts'

/** What one call of `run` takes besides the input. */
export interface RunOptions<Deps = unknown> {
  /** earlier messages of the conversation, continued by this run */
  history?: readonly Message[]
  signal?: AbortSignal
  /** overrides the agent's deps for this run */
  deps?: Deps
  /** part of the response-cache key, so repeated trials do not share answers @default 0 */
  trial?: number
}

export type AgentInput = string | readonly Turn[]

/** What the run looks like at the step where a hook (a validator, `prepare`, `prepareTools`) is called. */
export interface RunContext<Deps = unknown> {
  /** the run's deps (`RunOptions.deps`, else the agent's) */
  deps: Deps
  runId: string
  /** model calls made so far in this run */
  iteration: number
  /** the conversation so far, history included */
  messages: readonly Message[]
  /** tokens spent so far */
  usage: Usage
}

/** The final output an output validator sees: the parsed value with an `output` schema, else the reply text. */
export type FinalOutput<Output> = [Output] extends [undefined] ? string : Output

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
  /** text the model gave alongside its tool calls */
  reasoning: string[]
  /** id of the provider that produced the last reply (differs from the configured one after a fallback) */
  providerUsed: string
  /** why the run stopped, for every stop but `final` and `terminal_tool` */
  error?: string
  durationMs: number
  /** marks a result of this engine, so checks can trust its tool calls (e.g. `is_valid_tool_call`) */
  source: 'engine'
}

/** Events of `agent.stream()`, ending with the result. */
export type AgentEvent<Output = undefined> =
  | { type: 'text-delta'; text: string; iteration: number }
  | { type: 'tool-call'; callId: string; name: string; args: unknown }
  | { type: 'tool-chunk'; callId: string; name: string; chunk: unknown }
  | { type: 'tool-result'; callId: string; name: string; ok: boolean; result?: unknown; error?: string }
  | { type: 'result'; result: AgentResult<Output> }
