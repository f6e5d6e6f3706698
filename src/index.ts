export { Agent } from './engine/agent.ts'
export type { BatchOptions } from './engine/agent.ts'
export type {
  AgentOptions,
  HandoffTarget,
  TeamAgent,
  ModelPrice,
  OutputValidator,
  RetryOptions,
  UsageLimits,
} from './engine/options.ts'
export type {
  AgentEvent,
  AgentInput,
  AgentResult,
  AgentTurn,
  FinalOutput,
  PartialOutput,
  RunOptions,
} from './engine/agent-run.ts'
export type { McpHttpServer, McpServerOptions, McpStdioServer } from './mcp/options.ts'
export { ModelRetry } from './engine/model-retry.ts'
export type { Observer } from './engine/observer.ts'
export { MemoryCache } from './engine/cache.ts'
export type { CacheStats, MemoryCacheOptions, ResponseCache } from './engine/cache.ts'
export { jsonLinesLogger } from './engine/json-lines-logger.ts'
export type { JsonLinesLoggerOptions } from './engine/json-lines-logger.ts'
export { tool } from './tools/tool.ts'
export type { AgentTool, AnyTool, Tool, ToolCacheOptions, ToolConfig, ToolContext } from './tools/tool.ts'
export type { PolicyRule, PolicyRules } from './tools/policy.ts'
export type { ApprovalContext } from './tools/tool.ts'
export { approve, reject } from './engine/approvals/approval.ts'
export type { ApprovalDecision, PendingApproval, RunState } from './engine/approvals/approval.ts'
export type { ResumeOptions } from './engine/approvals/resume.ts'
export type { AgentToolOptions } from './engine/agents/agent-tool.ts'
export type { AgentUsage } from './engine/agents/agent-usage.ts'
export type { MemoryOptions, SummarizeOptions } from './engine/memory/memory.ts'
export { windowMessages } from './engine/memory/window.ts'
export type { MessageWindow, WindowLimits } from './engine/memory/window.ts'
export { InMemorySessionStore } from './engine/sessions/memory-store.ts'
export type { InMemorySessionStoreOptions } from './engine/sessions/memory-store.ts'
export { FileSessionStore } from './engine/sessions/file-store.ts'
export type { FileSessionStoreOptions } from './engine/sessions/file-store.ts'
export { KeyedLock } from './engine/sessions/keyed-lock.ts'
export type { ReleaseLock, SessionRecord, SessionStore } from './engine/sessions/session-store.ts'
export type {
  Guardrail,
  GuardrailContext,
  GuardrailOptions,
  GuardrailReaction,
  GuardrailTrip,
  GuardrailVerdict,
} from './engine/guardrails/guardrail.ts'
export { piiGuardrail } from './engine/guardrails/pii.ts'
export type { PiiGuardrailOptions } from './engine/guardrails/pii.ts'
export { lengthGuardrail } from './engine/guardrails/length.ts'
export type { LengthGuardrailOptions } from './engine/guardrails/length.ts'
export { formatGuardrail } from './engine/guardrails/format.ts'
export type { FormatGuardrailOptions } from './engine/guardrails/format.ts'
export { topicGuardrail } from './engine/guardrails/topic.ts'
export type { TopicGuardrailOptions } from './engine/guardrails/topic.ts'
export { injectionGuardrail } from './engine/guardrails/injection.ts'
export type { InjectionGuardrailOptions } from './engine/guardrails/injection.ts'
export { registerProvider, resolveModel } from './providers/registry.ts'
export type { ProviderFactory, RegisterProviderOptions } from './providers/registry.ts'
export { registerEmbeddingModel } from './providers/embedding.ts'
export type { EmbeddingModel, EmbeddingModelFactory } from './providers/embedding-model.ts'
export { createRedactor, envRedactor } from './util/redact.ts'
export type { RedactionOptions, Redactor } from './util/redact.ts'
export { LocalProvider } from './providers/local.ts'
export { OpenAiProvider } from './providers/openai.ts'
export type { OpenAiProviderOptions } from './providers/openai.ts'
export { OpenAiResponsesProvider } from './providers/openai-responses.ts'
export type { OpenAiResponsesProviderOptions } from './providers/openai-responses.ts'
export { AnthropicProvider } from './providers/anthropic.ts'
export type { AnthropicProviderOptions } from './providers/anthropic.ts'
export { fallback, FallbackProvider } from './providers/fallback.ts'
export type { FallbackEvent, FallbackOptions } from './providers/fallback.ts'
export { checkModelCredentials, createProviderFromModelString } from './providers/models.ts'
export { AiSdkProvider } from './providers/ai-sdk.ts'
export type { AiSdkProviderOptions } from './providers/ai-sdk.ts'
export type { AiSdkLanguageModel, AiSdkProviderMetadata } from './providers/ai-sdk-model.ts'
export { createAiSdkModelProvider } from './providers/ai-sdk-packages.ts'
export type { AiSdkModelStringOptions } from './providers/ai-sdk-packages.ts'
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
export { loadSuite, loadSuites } from './cases/load.ts'
export { CaseList } from './cases/case-list.ts'
export type { SelectOptions, Suite } from './cases/suite.ts'
export type { CaseDefinition } from './cases/case-definition.ts'
export { caseFileJsonSchema } from './cases/schema.ts'
export { compileEvaluators } from './cases/compile-evaluators.ts'
export { defineJudgeSpec, judgeSpecs, loadJudgeSpecFile, specHash } from './evaluators/judges/index.ts'
export type { JudgeSpec } from './evaluators/judges/index.ts'
export { JudgeError } from './evaluators/llm-judge-call.ts'
export type { JudgeOptions } from './evaluators/llm-judge-options.ts'
export type { JudgeItem, JudgeSettings } from './evaluators/llm-judge-options.ts'
export {
  compareToBaseline,
  evaluateGate,
  gateOptionsSchema,
  readBaseline,
  writeBaseline,
} from './baselines/index.ts'
export type { Baseline, GateOptions, GateResult } from './baselines/index.ts'
export type { Comparison } from './baselines/comparison.ts'
export type { Evaluator, EvaluatorContext, Verdict } from './evaluators/evaluator.ts'
export { createTarget } from './targets/index.ts'
export { agentTarget } from './targets/agent.ts'
export type { AgentTargetOptions, RunnableAgent } from './targets/agent.ts'
export { functionTarget } from './targets/function.ts'
export type { FunctionTargetOptions, TargetFunction } from './targets/function.ts'
export { httpTarget } from './targets/http.ts'
export type { HttpTargetOptions } from './targets/http.ts'
export { commandTarget } from './targets/command.ts'
export type { CommandTargetOptions } from './targets/command.ts'
export type { Target, TargetContext, TargetSpec } from './targets/target.ts'
export type { AgentResultLike } from './targets/to-transcript.ts'
export { aiSdkMessages, fromAiSdk } from './adapters/ai-sdk.ts'
export type { AiSdkResult, MapOptions } from './adapters/ai-sdk.ts'
export type { ModelMessage } from './adapters/ai-sdk-messages.ts'
export { fromOpenAIAgents } from './adapters/openai-agents.ts'
export type { AgentsRunResult } from './adapters/openai-agents.ts'
export { fromLangGraph } from './adapters/langgraph.ts'
export type { LangGraphState } from './adapters/langgraph.ts'
export { fromMastra } from './adapters/mastra.ts'
export type { MastraOutput } from './adapters/mastra.ts'
export { costOf } from './adapters/cost.ts'
export type { Adapter, AdapterRequest, TranscriptParts } from './adapters/adapter.ts'
export { runSuite, runSuites } from './runner/run-suite.ts'
export type { RunOptions as SuiteRunOptions } from './runner/run-suite.ts'
export type { CaseResult, CaseStatus, NamedVerdict, SerializedError } from './model/case-result.ts'
export type { CaseProblem, CaseStats, CaseStatsList, RunInfo, RunReport } from './model/run-report.ts'
export type { Reporter } from './reporters/reporter.ts'
export { createReporters, REPORTERS } from './reporters/index.ts'
export type { ReporterFactory, ReporterOptions } from './reporters/index.ts'
export { openReport } from './report-file/read.ts'
export { reportSchema } from './report-file/schema.ts'
export type { Report } from './report-file/schema.ts'
export { ConsoleReporter } from './reporters/console.ts'
export type { ConsoleReporterOptions } from './reporters/console.ts'
export {
  AbortError,
  CaseFileError,
  ConfigError,
  EvalsError,
  InternalError,
  NotReportedError,
  ProviderError,
  TimeoutError,
} from './errors.ts'
export type { CaseFileIssue } from './errors.ts'
export type {
  FinishReason,
  Message,
  PolicyDecision,
  GuardrailAction,
  GuardrailStage,
  InputPart,
  IterationReasoning,
  ReasoningPart,
  RunContext,
  StopReason,
  ToolCallRecord,
  ToolCallRequest,
  TraceStep,
  Transcript,
  TranscriptSource,
  Turn,
  Usage,
} from './types.ts'
export { traceCaptureProcessor } from './traces/capture-processor.ts'
export type { CapturedSpan, CaseSpans } from './traces/span.ts'
