import type {
  FinishReason,
  Message,
  RateLimitReading,
  ReasoningPart,
  ToolCallRequest,
  Usage,
} from '../types.ts'

/** A tool as the model sees it: the JSON Schema comes from the tool's zod parameters. */
export interface ToolSchema {
  name: string
  description: string
  /** JSON Schema of an object */
  parameters: Record<string, unknown>
}

/** Ask for structured output: a JSON Schema the reply must satisfy. */
export interface OutputSchema {
  name: string
  /** JSON Schema of the reply */
  schema: Record<string, unknown>
}

export type ToolChoice = 'auto' | 'required' | 'none' | { name: string }

/** Sampling settings a provider passes through when its API supports them. */
export interface ModelSettings {
  temperature?: number
  maxTokens?: number
  topP?: number
  /** allow several tool calls in one reply @default true */
  parallelToolCalls?: boolean
  /**
   * ask a reasoning model to think, and to show it: OpenAI's `reasoning.effort` with a summary, Anthropic's extended
   * thinking with `budgetTokens` (by effort: low 1024, medium 4096, high 16384 when not given)
   */
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high'; budgetTokens?: number }
}

/** Everything a provider needs for one model call. Providers are bound to one model. */
export interface CompletionRequest {
  /** system prompt, sent in the provider's native way */
  system?: string
  messages: Message[]
  tools: ToolSchema[]
  toolChoice?: ToolChoice
  /** native structured output, for providers whose `capabilities.structuredOutput` is true */
  output?: OutputSchema
  settings?: ModelSettings
}

/** One model reply. */
export interface Completion {
  message: { text: string; toolCalls: ToolCallRequest[] }
  /** the model's reasoning, for APIs that show it (thinking blocks, reasoning summaries) */
  reasoning?: ReasoningPart[]
  usage: Usage
  finishReason: FinishReason
  /** the model that answered, as the API reported it (used for pricing) */
  model: string
  /** the provider that answered, when it differs from the one called (fallback) */
  providerId?: string
}

/** Incremental output of a streaming call; the last event carries the whole completion. */
export type CompletionEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'done'; completion: Completion }

export interface CallOptions {
  signal: AbortSignal
  /** told when a provider that wraps others (fallback) moves a call from one to the next */
  onFallback?: (event: { from: string; to: string; error: Error }) => void
  /** told what the reply's rate-limit headers said (the engine's rate limiter paces by them) */
  onRateLimit?: (reading: RateLimitReading) => void
}

/**
 * A model API the engine can call. Providers do not retry: they throw `ProviderError` with `retryable` and
 * `retryAfterMs`, and the engine's retry policy decides (so every retry is a trace step).
 */
export interface Provider {
  /** shown in reports and baselines, e.g. `openai:gpt-4.1-mini` */
  readonly id: string
  /** what the API supports natively */
  readonly capabilities?: ProviderCapabilities
  complete(request: CompletionRequest, options: CallOptions): Promise<Completion>
  /** streaming variant; without it the engine streams the whole completion as one delta */
  stream?(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent>
}

export interface ProviderCapabilities {
  /** JSON-schema constrained replies @default false */
  structuredOutput?: boolean
}
