/**
 * The part of the AI SDK's language model specification (`LanguageModelV2` of AI SDK 5, `V3` of AI SDK 6, `V4` of
 * AI SDK 7, from `@ai-sdk/provider`) that the bridge uses, written out structurally so that no AI SDK package is
 * needed to compile or load this module. Every provider package (`@ai-sdk/google`, `@ai-sdk/amazon-bedrock`,
 * `@openrouter/ai-sdk-provider`, …) returns models of this shape.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4'
  /** e.g. `google.generative-ai`, `openai.chat`, `amazon-bedrock` */
  readonly provider: string
  readonly modelId: string
  // typed loosely so that every version's models fit; the bridge calls them as `AiSdkModelCalls`
  doGenerate(options: never): PromiseLike<unknown>
  doStream(options: never): PromiseLike<unknown>
}

/** How the bridge calls a model: with the options and results of the versions it speaks. */
export interface AiSdkModelCalls {
  readonly provider: string
  readonly modelId: string
  doGenerate(options: AiSdkCallOptions): PromiseLike<AiSdkGenerateResult>
  doStream(options: AiSdkCallOptions): PromiseLike<AiSdkStreamResult>
}

/** Provider-specific options or metadata, keyed by provider name (`{ google: { thoughtSignature } }`). */
export type AiSdkProviderMetadata = Record<string, Record<string, unknown>>

/** A user message's part: text, or an image or file (inline base64 or a URL; `image/*` when the type is unknown). */
export type AiSdkUserPart =
  { type: 'text'; text: string } | { type: 'file'; data: string | URL; mediaType: string; filename?: string }

export type AiSdkPromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: AiSdkUserPart[] }
  | { role: 'assistant'; content: AiSdkAssistantPart[] }
  | { role: 'tool'; content: AiSdkToolResultPart[] }

export type AiSdkAssistantPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; providerOptions?: AiSdkProviderMetadata }
  | {
      type: 'tool-call'
      toolCallId: string
      toolName: string
      /** the arguments as a JSON value, not text */
      input: unknown
      providerOptions?: AiSdkProviderMetadata
    }

export interface AiSdkToolResultPart {
  type: 'tool-result'
  toolCallId: string
  toolName: string
  output: { type: 'text' | 'error-text'; value: string }
}

export interface AiSdkCallOptions {
  prompt: AiSdkPromptMessage[]
  maxOutputTokens?: number
  temperature?: number
  topP?: number
  tools?: { type: 'function'; name: string; description?: string; inputSchema: Record<string, unknown> }[]
  toolChoice?: { type: 'auto' | 'none' | 'required' } | { type: 'tool'; toolName: string }
  responseFormat?: { type: 'json'; schema?: Record<string, unknown>; name?: string }
  abortSignal?: AbortSignal
  providerOptions?: AiSdkProviderMetadata
}

/** Usage as V3 and V4 report it: input and output broken down. */
export interface AiSdkUsageV3 {
  inputTokens: {
    total: number | undefined
    noCache: number | undefined
    cacheRead: number | undefined
    cacheWrite: number | undefined
  }
  outputTokens: { total: number | undefined; text?: number | undefined; reasoning?: number | undefined }
}

/** Usage as V2 reports it: flat counts. */
export interface AiSdkUsageV2 {
  inputTokens: number | undefined
  outputTokens: number | undefined
  cachedInputTokens?: number | undefined
}

export type AiSdkUsage = AiSdkUsageV3 | AiSdkUsageV2

/** V3 and V4 give `{ unified, raw }`; V2 a plain string. */
export type AiSdkFinishReason = string | { unified: string; raw?: string | undefined }

export type AiSdkContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; providerMetadata?: AiSdkProviderMetadata }
  | {
      type: 'tool-call'
      toolCallId: string
      toolName: string
      /** JSON text */
      input: string
      /** a tool the provider ran itself (web search and the like): not ours to run */
      providerExecuted?: boolean
      providerMetadata?: AiSdkProviderMetadata
    }
  | { type: string }

export interface AiSdkGenerateResult {
  content: AiSdkContent[]
  /** (V4) the text to parse as structured output when it is not all the text parts (drafts, then the answer) */
  structuredOutputText?: string
  finishReason: AiSdkFinishReason
  usage: AiSdkUsage
  response?: { modelId?: string; headers?: Record<string, string | undefined> }
}

export interface AiSdkStreamResult {
  stream: ReadableStream<AiSdkStreamPart>
  response?: { headers?: Record<string, string | undefined> }
}

export type AiSdkStreamPart =
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'reasoning-start'; id: string; providerMetadata?: AiSdkProviderMetadata }
  | { type: 'reasoning-delta'; id: string; delta: string; providerMetadata?: AiSdkProviderMetadata }
  | { type: 'reasoning-end'; id: string; providerMetadata?: AiSdkProviderMetadata }
  | { type: 'tool-input-start'; id: string; toolName: string; providerExecuted?: boolean }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | Extract<AiSdkContent, { type: 'tool-call' }>
  | { type: 'response-metadata'; modelId?: string }
  | { type: 'finish'; usage: AiSdkUsage; finishReason: AiSdkFinishReason }
  | { type: 'error'; error: unknown }
  | { type: string }

/** Whether a value is an AI SDK language model of a specification version the bridge speaks. */
export function isAiSdkLanguageModel(value: unknown): value is AiSdkLanguageModel {
  if (typeof value !== 'object' || value === null) return false
  const model = value as Partial<Record<keyof AiSdkLanguageModel, unknown>>
  return (
    (model.specificationVersion === 'v2' ||
      model.specificationVersion === 'v3' ||
      model.specificationVersion === 'v4') &&
    typeof model.doGenerate === 'function' &&
    typeof model.doStream === 'function'
  )
}
