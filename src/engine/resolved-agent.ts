import type { z } from 'zod'
import type { ModelSettings, Provider, ToolChoice } from '../providers/provider.ts'
import type { PolicyRules } from '../tools/policy.ts'
import type { AnyTool } from '../tools/tool.ts'
import type { ToolCallRecord, ToolCallRequest } from '../types.ts'
import type { ResponseCache } from './cache.ts'
import type { ErasedOutputValidator } from './final-output.ts'
import type { Observer } from './observer.ts'
import type { ModelPrice, UsageLimits } from './options.ts'
import type { ErasedPrepareTools } from './prepare-tools.ts'
import type { ResolvedRetry } from './retry.ts'
import type { ToolCacheEpochs } from './tool-cache-epochs.ts'
import type { GuardrailOptions } from './guardrails/guardrail.ts'
import type { ResolvedMemory } from './memory/memory.ts'
import type { SessionStore } from './sessions/session-store.ts'

/** An Agent's options with every default applied. */
export interface ResolvedAgent {
  name: string
  provider: Provider
  instructions: string | ((context: { deps: unknown }) => string) | undefined
  tools: ReadonlyMap<string, AnyTool>
  /** set when a tool has `prepare` or the agent has `prepareTools`: the tool list is decided at each step */
  prepareTools: ErasedPrepareTools | 'per-tool' | undefined
  toolChoice: ToolChoice | undefined
  resetToolChoice: boolean
  maxIterations: number
  parallelTools: boolean
  toolConcurrency: number
  toolTimeoutMs: number
  toolRetries: number
  maxToolErrors: number
  maxToolResultChars: number | undefined
  stopWhen: ((call: ToolCallRecord, result: unknown) => boolean) | undefined
  policy: PolicyRules | undefined
  confirm: ((call: ToolCallRequest & { args: unknown }) => boolean | Promise<boolean>) | undefined
  confirmTimeoutMs: number
  output: z.ZodType | undefined
  /** the output schema takes a string: the reply text is validated as it is, not searched for JSON */
  outputPlainText: boolean
  outputJsonSchema: Record<string, unknown> | undefined
  outputValidators: readonly ErasedOutputValidator[]
  outputRetries: number
  settings: ModelSettings | undefined
  retry: ResolvedRetry
  requestTimeoutMs: number
  limits: UsageLimits | undefined
  cache: ResponseCache | undefined
  /** some tool has `cache`: without the agent's cache, each run gets its own */
  cachesTools: boolean
  /** which cached tool results the tools that write have made stale, across the agent's runs */
  cacheEpochs: ToolCacheEpochs
  observers: readonly Observer[]
  /** each hook's promise is awaited before the run goes on */
  awaitObservers: boolean
  deps: unknown
  prices: Record<string, ModelPrice> | undefined
  /** why some tools are missing from this run (MCP servers that could not start); traced as errors at its start */
  startupFailures: readonly string[]
  /** what the agent does, for agents that hand over to it or call it as a tool */
  description: string | undefined
  /** a policy or a tool's `needsApproval` can put calls under review */
  mayReview: boolean
  memory: ResolvedMemory | undefined
  guardrails: GuardrailOptions | undefined
  sessions: SessionStore | undefined
  /** the agents this one can hand the conversation to, by the name of the tool that does it */
  handoffs: ReadonlyMap<string, HandoffRoute>
  /** other agents can take part in its runs (handoffs, agents as tools): messages and usage are kept per agent */
  team: boolean
  /** the OpenTelemetry context of a tool call's span, for runs of agents called from it; set by `withSpans` */
  spanOfCall?: (callId: string) => unknown
}

/** Where a handoff tool moves the conversation. */
export interface HandoffRoute {
  /** the agent's name */
  agent: string
  /** the agent's settings for a run, ready (its MCP tools listed) */
  resolve(): Promise<ResolvedAgent>
}
