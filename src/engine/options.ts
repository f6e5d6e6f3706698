import type { z } from 'zod'
import type { McpServerOptions } from '../mcp/options.ts'
import type { ModelSettings, Provider, ToolChoice, ToolSchema } from '../providers/provider.ts'
import type { ResponseCache } from './cache.ts'
import type { Observer } from './observer.ts'
import type { FinalOutput } from './agent-run.ts'
import type { PolicyRules } from '../tools/policy.ts'
import type { AgentTool } from '../tools/tool.ts'
import type { RunContext, ToolCallRecord, ToolCallRequest } from '../types.ts'
import type { GuardrailOptions } from './guardrails/guardrail.ts'
import type { MemoryOptions } from './memory/memory.ts'
import type { SessionStore } from './sessions/session-store.ts'

/** How an Agent behaves. Only `model` is required. */
export interface AgentOptions<Output = undefined, Deps = unknown> {
  /** shown in traces and reports @default 'agent' */
  name?: string
  /** a model string (`local`, `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-6`, …) or a Provider */
  model: string | Provider
  /** the system prompt; a function gets the run's deps */
  instructions?: string | ((context: { deps: Deps }) => string)
  /** tools typed for other deps than the agent's are a type error (see `tool.withDeps`) */
  tools?: readonly AgentTool<Deps>[]
  /** MCP servers whose tools join `tools`; started on the first run, stopped by `agent.close()` */
  mcp?: readonly McpServerOptions[]
  /**
   * edits the tool list before each model call, after each tool's own `prepare`: return the tools to offer (drop
   * some, or change a description or schema; names stay); a call of a tool not offered this step is refused
   */
  prepareTools?: (
    context: RunContext<Deps>,
    tools: readonly ToolSchema[],
  ) => readonly ToolSchema[] | Promise<readonly ToolSchema[]>
  /**
   * whether the model may or must call a tool: `auto`, `none` (answer without tools), `required` (some tool) or
   * `{ name }` (that tool). `required` and a named tool hold until the model has called a tool (see
   * `resetToolChoice`); a named tool with `terminal: true` makes a router whose call ends the run @default 'auto'
   */
  toolChoice?: ToolChoice
  /**
   * after the model's first tool call of a run, `required` and a named `toolChoice` fall back to `auto`, so the
   * model can answer; false keeps them for every model call (end the run with a terminal tool) @default true
   */
  resetToolChoice?: boolean
  /** model calls before the run stops with `max_iterations` @default 10 */
  maxIterations?: number
  /**
   * run the tool calls of one reply concurrently where it is safe: consecutive `readOnly` calls together, every other
   * call after the calls before it, calls on one `resource` one by one; false runs every call in order @default true
   */
  parallelTools?: boolean
  /** how many tool calls run at once when parallel @default 10 */
  toolConcurrency?: number
  /** default per-tool timeout; a tool's own `timeoutMs` wins @default 30_000 */
  toolTimeoutMs?: number
  /**
   * replies in a row whose calls of one tool all failed, before the run stops with `error` (several failed calls of
   * one reply count once) @default 3
   */
  toolRetries?: number
  /**
   * the most characters of a tool result's text the model is sent, for tools without their own `maxResultChars`;
   * a longer result is cut, with a marker saying how much @default no limit
   */
  maxToolResultChars?: number
  /** failed tool calls over the whole run before it stops with `error` @default 20 */
  maxToolErrors?: number
  /** ends the run with this tool result as the output when it returns true */
  stopWhen?: (call: ToolCallRecord, result: unknown) => boolean
  /** glob rules deciding which tool calls may run */
  policy?: PolicyRules
  /** asked for each call a `review` rule matches; without it such calls are denied */
  confirm?: (call: ToolCallRequest & { args: unknown }) => boolean | Promise<boolean>
  /** how long `confirm` may take before the call is denied @default 60_000 */
  confirmTimeoutMs?: number
  /**
   * structured output: the reply (or a terminal tool's result) must be JSON matching this schema; `result.parsed` is
   * typed. A JSON Schema object works too (sent to the model as it is; `parsed` is then untyped)
   */
  output?: z.ZodType<Output> | Record<string, unknown>
  /**
   * checks of the final output (the parsed value with `output`, else the text), run in order after the schema;
   * throw `new ModelRetry(message)` to send the message to the model and let it try again
   */
  outputValidators?: readonly OutputValidator<Output, Deps>[]
  /** times a reply that fails `output` or an output validator is sent back with the errors @default 2 */
  outputRetries?: number
  settings?: ModelSettings
  retry?: RetryOptions
  /** per model call timeout @default 120_000 */
  requestTimeoutMs?: number
  limits?: UsageLimits
  cache?: ResponseCache
  observers?: readonly Observer[]
  /**
   * wait for each observer hook's promise before the run goes on (a hook that rejects is still ignored); by default
   * hooks are not awaited @default false
   */
  awaitObservers?: boolean
  /** injected into every tool's `ctx.deps` (never shown to the model) */
  deps?: Deps
  /** price overrides in USD per million tokens, keyed by model name (as the API reports it) */
  prices?: Record<string, ModelPrice>
  /** what the agent does: the model of an agent that can hand over to it (or call it as a tool) reads this */
  description?: string
  /** a window over long conversations, with an optional summary of what it drops */
  memory?: MemoryOptions
  /** where `run(input, { sessionId })` loads the conversation from and saves it to */
  sessions?: SessionStore
  /** screens the input, each tool result and the output; see `piiGuardrail`, `injectionGuardrail`, … */
  guardrails?: GuardrailOptions<Deps>
  /**
   * agents this one can hand the conversation to: each is a `transfer_to_<name>` tool, and the agent it names answers
   * from the next turn on
   */
  handoffs?: readonly HandoffTarget[]
}

/** An agent to hand over to, as itself or with the tool's name and description. */
export type HandoffTarget = TeamAgent | { agent: TeamAgent; toolName?: string; description?: string }

/** An `Agent`, as another agent's option sees it. */
export interface TeamAgent {
  readonly name: string
  readonly description: string | undefined
  /** @internal marks an Agent */
  readonly '~agent': true
}

/** Checks the final output; throws `ModelRetry` to ask the model again, any other error ends the run with `error`. */
export type OutputValidator<Output = undefined, Deps = unknown> = (
  output: FinalOutput<Output>,
  context: RunContext<Deps>,
) => void | Promise<void>

/**
 * Every option of `AgentOptions`, the one list the Agent checks options against: a key not in it is a ConfigError.
 * TypeScript requires each option of `AgentOptions` here, so a new option is one line in each.
 */
export const AGENT_OPTION_KEYS: Record<keyof AgentOptions, true> = {
  name: true,
  model: true,
  instructions: true,
  tools: true,
  prepareTools: true,
  mcp: true,
  toolChoice: true,
  resetToolChoice: true,
  maxIterations: true,
  parallelTools: true,
  toolConcurrency: true,
  toolTimeoutMs: true,
  toolRetries: true,
  maxToolErrors: true,
  maxToolResultChars: true,
  stopWhen: true,
  policy: true,
  confirm: true,
  confirmTimeoutMs: true,
  output: true,
  outputValidators: true,
  outputRetries: true,
  settings: true,
  retry: true,
  requestTimeoutMs: true,
  limits: true,
  cache: true,
  observers: true,
  awaitObservers: true,
  deps: true,
  prices: true,
  description: true,
  memory: true,
  sessions: true,
  guardrails: true,
  handoffs: true,
}

export interface RetryOptions {
  /** retries of a retryable model error (429, 5xx, 529, timeouts, connection errors) @default 2 */
  maxRetries?: number
  /** first backoff delay @default 500 */
  initialDelayMs?: number
  /** cap on any one delay, including a server's retry-after @default 30_000 */
  maxDelayMs?: number
}

export interface UsageLimits {
  maxRequests?: number
  maxInputTokens?: number
  maxOutputTokens?: number
  maxTotalTokens?: number
  maxCostUsd?: number
}

export interface ModelPrice {
  inputMtok: number
  outputMtok: number
  cacheReadMtok?: number
  cacheWriteMtok?: number
}
