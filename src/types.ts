/**
 * Shared domain types: the provider-neutral conversation, usage, the trace, and the Transcript that every
 * evaluator reads whatever the target was.
 */

/** A tool call as the model asked for it. `arguments` is the raw JSON text the model produced. */
export interface ToolCallRequest {
  /** provider-assigned id that links the call to its result */
  id: string
  name: string
  /** raw JSON text; may be malformed, which the engine reports back to the model */
  arguments: string
  /** what the provider needs to accept the call back in a later turn (Gemini's thought signature); opaque */
  data?: Record<string, unknown>
}

/**
 * A part of a user message for models that take more than text. Images and files are strings, so conversations stay
 * JSON: an `https:` or `data:` URL, or base64 with its `mediaType` (`image/png`, `application/pdf`, …).
 */
export type InputPart =
  | { type: 'text'; text: string }
  | { type: 'image'; image: string; mediaType?: string }
  | { type: 'file'; data: string; mediaType: string; filename?: string }

/** The model's reasoning in one reply: a thinking block (Anthropic) or a reasoning summary (OpenAI). */
export interface ReasoningPart {
  text: string
  /**
   * what the provider needs to accept the part back in a later turn (Anthropic's `signature`, an OpenAI reasoning
   * item's id and encrypted content), tagged with the provider; opaque to everyone else
   */
  data?: Record<string, unknown>
}

/** What the model showed of its thinking in one model call. */
export interface IterationReasoning {
  /** the model call, from 1 */
  iteration: number
  /** text the model wrote alongside its tool calls; '' for a final answer or when it wrote none */
  text: string
  /** its reasoning (Anthropic thinking blocks, OpenAI reasoning summaries); '' when the API showed none */
  thinking: string
}

/** One message of a provider-neutral conversation. */
export type Message =
  | { role: 'system'; content: string }
  /** `content` is the message's text; `parts`, when given, is the whole message (images and files too) */
  | { role: 'user'; content: string; parts?: InputPart[] }
  | {
      role: 'assistant'
      content: string
      toolCalls?: ToolCallRequest[]
      /** the agent that wrote the message, in runs where several agents answer (handoffs) */
      agent?: string
      /** what the model showed of its thinking, for APIs that want it back in later turns */
      reasoning?: ReasoningPart[]
    }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean }

/** Token counts normalized across providers. */
export interface Usage {
  /** all prompt tokens, including cache reads and writes */
  inputTokens: number
  outputTokens: number
  /** part of `inputTokens` served from the provider's prompt cache */
  cacheReadTokens: number
  /** part of `inputTokens` written to the provider's prompt cache */
  cacheWriteTokens: number
}

/** A tool call as it ran: what was asked, and what came back. */
export interface ToolCallRecord {
  id: string
  name: string
  /** parsed (and coerced) arguments; the raw text when it was not valid JSON */
  args: unknown
  /** the tool's return value, when it succeeded */
  result?: unknown
  /** the error text sent back to the model, when it failed, was denied or timed out */
  error?: string
  /** how long the tool ran; absent when the framework does not report it */
  durationMs?: number
}

interface TraceStepBase {
  /** ms since the Unix epoch */
  startedAt: number
  durationMs: number
}

/** One typed step of an agent run, in the order it happened. */
export type TraceStep =
  | (TraceStepBase & {
      type: 'llm_call'
      iteration: number
      providerId: string
      model: string
      usage: Usage
      finishReason: FinishReason
      toolCalls: number
      /** USD for this call; null when the model's price is unknown */
      costUsd?: number | null
      /** the model's reasoning in this reply (thinking blocks, reasoning summaries), when it showed any */
      reasoning?: string
    })
  | (TraceStepBase & { type: 'cache_hit'; iteration: number; providerId: string; key: string })
  | (TraceStepBase & {
      type: 'retry'
      iteration: number
      providerId: string
      attempt: number
      delayMs: number
      error: string
    })
  | (TraceStepBase & { type: 'fallback'; from: string; to: string; error: string })
  | (TraceStepBase & { type: 'tool_call'; callId: string; name: string; args: unknown })
  /** a cacheable tool's result was served from the cache instead of running the tool */
  | (TraceStepBase & { type: 'tool_cache_hit'; callId: string; name: string; key: string })
  | (TraceStepBase & {
      type: 'tool_result'
      callId: string
      name: string
      ok: boolean
      /** length of the result text the model was sent; the value itself is the call's `result` in `toolCalls` */
      resultChars?: number
      /** the length of the whole result text, when it was cut to the tool's `maxResultChars` before it was sent */
      truncatedFrom?: number
      error?: string
    })
  | (TraceStepBase & {
      type: 'policy'
      callId: string
      name: string
      decision: PolicyDecision
      reason: string
    })
  | (TraceStepBase & { type: 'structured_retry'; attempt: number; error: string })
  /** a limit (`maxIterations` or one of `limits`) stopped the run */
  | (TraceStepBase & { type: 'limit'; limit: string; reason: string })
  | (TraceStepBase & { type: 'error'; error: string })
  /** the memory dropped the oldest messages from what the model is sent */
  | (TraceStepBase & { type: 'memory_trim'; dropped: number; kept: number; tokens: number })
  /** the memory summarised dropped messages with a model; the summary joins the system prompt */
  | (TraceStepBase & {
      type: 'memory_summary'
      providerId: string
      summarized: number
      summary: string
      usage: Usage
    })
  /** a guardrail looked at the input, a tool result or the output */
  | (TraceStepBase & {
      type: 'guardrail'
      stage: GuardrailStage
      name: string
      action: GuardrailAction
      reason: string
      /** the tool whose result was screened */
      tool?: string
    })
  /** a tool call waiting for a person's decision (`pending`), and the decision once it came */
  | (TraceStepBase & {
      type: 'approval'
      callId: string
      name: string
      status: 'pending' | 'approved' | 'rejected'
      reason: string
    })
  /** the conversation moved to another agent */
  | (TraceStepBase & { type: 'handoff'; callId: string; from: string; to: string })
  /** an agent ran as a tool of this one (`agent.asTool()`); its own steps are nested */
  | (TraceStepBase & {
      type: 'agent_run'
      callId: string
      agent: string
      runId: string
      stopReason: StopReason
      usage: Usage
      costUsd: number | null
      steps: TraceStep[]
    })

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other'

export type PolicyDecision = 'allow' | 'review' | 'deny'

/** What a guardrail screens: the user's input, a tool's result before the model sees it, or the final output. */
export type GuardrailStage = 'input' | 'tool_result' | 'output'

/** A guardrail's decision: let the text through, end the run, replace the text, or let it through with a warning. */
export type GuardrailAction = 'pass' | 'block' | 'rewrite' | 'warn'

/**
 * Why an agent run ended. The agent's own stops (see `AGENT_STOPS`) grade the case `failed`; `aborted` and `error`
 * are the harness's or the infrastructure's and make it `errored`; `interrupted` and `guardrail` are graded by the
 * case's checks (`interrupted`, `guardrail_tripped`), as a case may expect them.
 */
export type StopReason =
  /** the model answered without calling a tool */
  | 'final'
  /** a terminal tool or `stopWhen` ended the run; the tool result is the output */
  | 'terminal_tool'
  /** the loop reached its iteration (step) limit without a final answer */
  | 'max_iterations'
  /** a request, token or cost limit was reached */
  | 'usage_limit'
  /** a tool failed more often than its retry budget (or the run's failed-call budget) allows */
  | 'tool_failures'
  /** the structured output never validated, or an output validator rejected the answer */
  | 'invalid_output'
  /** the reply was cut off by the model's token limit (`finish_reason: length`, `max_tokens`) */
  | 'truncated'
  /** the provider's content filter stopped the reply */
  | 'content_filter'
  | 'aborted'
  /** the model call or the target failed for good (network, crash); see `error` */
  | 'error'
  /** tool calls wait for approval: resume with `agent.resume(result.state, decisions)` */
  | 'interrupted'
  /** a guardrail blocked the input, a tool result or the output; see `result.guardrail` */
  | 'guardrail'

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

/** The stops that come from the agent's behaviour: a case that ends so is `failed`, with the stop as evidence. */
export const AGENT_STOPS: ReadonlySet<StopReason> = new Set<StopReason>([
  'max_iterations',
  'usage_limit',
  'tool_failures',
  'invalid_output',
  'truncated',
  'content_filter',
])

/**
 * Where a transcript came from: `engine` (our `Agent`, which records everything), `adapter:<framework>` (an
 * adapter mapped another framework's result), `traces` (spans the target emitted), or `target` (what a function,
 * command or HTTP reply returned itself: fields it did not report are unknown).
 */
export type TranscriptSource = 'engine' | 'target' | 'traces' | `adapter:${string}`

/** A turn of input: a plain string is one user message. */
export type Turn = { role: 'system' | 'user' | 'assistant'; content: string }

/**
 * The normalized record of one target run that every evaluator reads. What the target did not report is `null`
 * (unknown), never an empty list or a zero: a check that needs an unknown field errors with how to provide it.
 */
export interface Transcript {
  input: string | Turn[]
  messages: Message[]
  output: string
  /** structured output, when the target produced one */
  parsed?: unknown
  /** null when the target did not report its tool calls; `[]` means it called none */
  toolCalls: ToolCallRecord[] | null
  /** null when the target did not report token usage */
  usage: Usage | null
  /** null when the usage or a model's price is unknown; never 0 for unknown */
  costUsd: number | null
  latencyMs: number
  /** model calls made; null when the target did not report them */
  iterations: number | null
  stopReason?: StopReason
  /** what stopped the agent, for one of its own stops (`AGENT_STOPS`): the evidence a failed case shows */
  stopDetail?: string
  /** the agent that gave the final answer, when the framework hands off between agents */
  agent?: string
  /** where this transcript came from, and so which fields can be trusted as recorded */
  source: TranscriptSource
  trace?: TraceStep[]
  /** the OpenTelemetry spans the case produced, with trace capture on (`trace: true`, `--trace`) */
  spans?: CaseSpans
  /** set when the target failed (a crash, a network failure after retries); the case is then `errored` */
  error?: string
}

// keys in canonical order here and below, so results files write usage without sorting a copy
export function emptyUsage(): Usage {
  return { cacheReadTokens: 0, cacheWriteTokens: 0, inputTokens: 0, outputTokens: 0 }
}

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    cacheReadTokens: total.cacheReadTokens + more.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + more.cacheWriteTokens,
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
  }
}

/** One budget as a reply's headers described it, at the moment the reply was sent. */
export interface BudgetReading {
  /** the budget's size (requests or tokens) */
  limit: number
  /** what is left of it */
  remaining: number
  /** time until the budget is whole again, when the headers said */
  resetMs: number | undefined
  /**
   * when the headers gave a time of day rather than a duration (Anthropic): that time, in epoch ms. Measured from
   * the call's sending rather than from its reply, it is never shorter than the provider meant, so the refill rate
   * read from it is never too high however late the reply came.
   */
  resetAt?: number
}

/**
 * What a provider said about its rate limits in one reply: OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,
 * tokens}`, Anthropic's `anthropic-ratelimit-{requests,tokens,input-tokens}-{limit,remaining,reset}`, and
 * `retry-after-ms` / `retry-after`. Both APIs describe a budget that refills continuously to `limit`, `resetMs`
 * being the time until it is full again.
 */
export interface RateLimitReading {
  requests?: BudgetReading
  tokens?: BudgetReading
  retryAfterMs?: number
}

/** An attribute value as OpenTelemetry allows it: a scalar or a list of scalars. */
export type SpanValue = string | number | boolean | (string | number | boolean | null)[]

/**
 * One finished span as the run captured it, whichever way it came (the in-process tracer provider, the OTLP
 * receiver, the OpenAI Agents SDK's trace processor): the shape the normalizer, the trace checks and the report read.
 */
export interface CapturedSpan {
  /** 32 hex digits; every span of one case shares it */
  traceId: string
  /** 16 hex digits */
  spanId: string
  /** absent on a root span (and on spans whose parent is the case's own root) */
  parentSpanId?: string
  name: string
  /** ms since the Unix epoch */
  startedAt: number
  durationMs: number
  /** `error` when the span's status said so; `unset` is what most spans say */
  status: 'unset' | 'ok' | 'error'
  /** the status message or the recorded exception's message, on an error span */
  error?: string
  attributes: Record<string, SpanValue>
}

/**
 * The spans a case produced, as its transcript keeps them: in start order, at most `MAX_KEPT_SPANS`; `omitted`
 * counts those left out. The trace checks count over `total`, not over the kept ones.
 */
export interface CaseSpans {
  /** the case's trace id (32 hex digits), to find it in a tracing backend */
  traceId: string
  /**
   * the kept spans, in start order, ids left out (as hex they would each be scanned for secrets when written):
   * `parent` is the index of the span's parent among them, when it was kept
   */
  spans: KeptSpan[]
  /** spans captured in all, kept or not */
  total: number
  /** spans left out of `spans` (beyond the bound) */
  omitted: number
  /** error spans in all, kept or not */
  errors: number
  /** the longest span's duration in ms, kept or not; null when there was no span */
  maxDurationMs: number | null
}

/** A span as a case's results keep it: a captured span without its ids, its parent by index. */
export type KeptSpan = Omit<CapturedSpan, 'traceId' | 'spanId' | 'parentSpanId'> & { parent?: number }
