export { Agent } from './engine/agent.ts'
export type { BatchOptions } from './engine/agent.ts'
export type {
  AgentEvent,
  AgentInput,
  AgentOptions,
  AgentResult,
  ModelPrice,
  RetryOptions,
  RunOptions,
  UsageLimits,
} from './engine/options.ts'
export type { Observer } from './engine/observer.ts'
export { MemoryCache } from './engine/cache.ts'
export type { MemoryCacheOptions, ResponseCache } from './engine/cache.ts'
export { jsonLinesLogger } from './engine/json-lines-logger.ts'
export type { JsonLinesLoggerOptions } from './engine/json-lines-logger.ts'
export { tool } from './tools/tool.ts'
export type { AnyTool, Tool, ToolConfig, ToolContext } from './tools/tool.ts'
export type { PolicyRule, PolicyRules } from './tools/policy.ts'
export { registerProvider, resolveModel } from './providers/registry.ts'
export type { ProviderFactory } from './providers/registry.ts'
export { LocalProvider } from './providers/local.ts'
export { OpenAiProvider } from './providers/openai.ts'
export type { OpenAiProviderOptions } from './providers/openai.ts'
export { AnthropicProvider } from './providers/anthropic.ts'
export type { AnthropicProviderOptions } from './providers/anthropic.ts'
export { fallback, FallbackProvider } from './providers/fallback.ts'
export type { FallbackEvent, FallbackOptions } from './providers/fallback.ts'
export { checkModelCredentials, createProviderFromModelString } from './providers/models.ts'
export type { ModelStringOptions } from './providers/models.ts'
export type {
  CallOptions,
  Completion,
  CompletionEvent,
  CompletionRequest,
  ModelSettings,
  OutputSchema,
  Provider,
  ProviderCapabilities,
  ToolChoice,
  ToolSchema,
} from './providers/provider.ts'
export {
  AbortError,
  CaseFileError,
  ConfigError,
  EvalsError,
  InternalError,
  ProviderError,
  TimeoutError,
} from './errors.ts'
export type { CaseFileIssue } from './errors.ts'
export type {
  FinishReason,
  Message,
  PolicyDecision,
  StopReason,
  ToolCallRecord,
  ToolCallRequest,
  TraceStep,
  Transcript,
  Turn,
  Usage,
} from './types.ts'
