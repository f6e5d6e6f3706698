import type { FinishReason, Usage } from '../../types.ts'

/** A tool call the mock model makes: `args` as a value, or `arguments` as raw (possibly malformed) JSON text. */
export interface MockToolCall {
  name: string
  args?: unknown
  arguments?: string
  /** @default `call_<n>_<i>` (OpenAI Chat and Responses) or `toolu_<n>_<i>` (Anthropic) */
  id?: string
}

interface MockTiming {
  /** delay before the response starts @default the server's `latencyMs` */
  latencyMs?: number
  /** delay between stream frames @default 0 */
  chunkDelayMs?: number
}

/** A successful reply, rendered in the wire format of whichever API was called (Chat, Responses, Messages). */
export interface MockMessageReply extends MockTiming {
  text?: string
  toolCalls?: MockToolCall[]
  /** structured output: sent as the JSON text of this value */
  json?: unknown
  /**
   * the model's reasoning, sent where the API carries it: a reasoning item with this summary (Responses), a
   * thinking block with a signature (Messages); Chat Completions has no place for it
   */
  reasoning?: string
  /** neutral counts (input includes cache reads and writes) @default estimated from the request and reply */
  usage?: Partial<Usage>
  /** @default the request's model */
  model?: string
  /** @default `tool_calls` when there are tool calls, else `stop` */
  finishReason?: FinishReason
  /** extra response headers, e.g. `x-ratelimit-remaining-requests` */
  headers?: Record<string, string>
}

/** An HTTP error in the called API's error format. */
export interface MockErrorReply extends MockTiming {
  status: number
  /** sent as the `retry-after-ms` header */
  retryAfterMs?: number
  /** sent as the `retry-after` header: seconds or an HTTP date */
  retryAfter?: number | string
  message?: string
  headers?: Record<string, string>
}

/**
 * A broken response: `reset` destroys the socket mid-response, `malformed-json` sends invalid JSON (a bad frame
 * when streaming), `truncated-stream` ends the body cleanly but early, `stream-error` sends an error event mid-stream.
 * What a broken gateway sends with HTTP 200: `empty-choices` is OpenAI's `choices: []` (Anthropic: no `content`;
 * streams: chunks with no choices, or `message_stop` with no stop reason), `null-message` is `message: null`
 * (Anthropic: `content: null`; streams: `delta: null`, or a `message_start` with `message: null`).
 */
export interface MockFaultReply extends MockTiming {
  fault: 'reset' | 'malformed-json' | 'truncated-stream' | 'stream-error' | 'empty-choices' | 'null-message'
}

export type MockReply = MockMessageReply | MockErrorReply | MockFaultReply

/** One request the server received, as the SDK sent it. */
export interface MockRequest {
  /** 0-based arrival order */
  index: number
  /** `openai` is Chat Completions (and embeddings), `openai-responses` the Responses API, `anthropic` Messages */
  api: 'openai' | 'openai-responses' | 'anthropic'
  method: string
  path: string
  /** lowercased names */
  headers: Record<string, string>
  /** parsed JSON, or the raw text when it was not JSON */
  body: unknown
  stream: boolean
  /** ms since the Unix epoch */
  receivedAt: number
}

export type MockHandler = (request: MockRequest) => MockReply | Promise<MockReply>

/** How the mock server answers. Give a `script` (replies in order) or a `handler`; a handler wins. */
export interface MockLlmServerOptions {
  script?: MockReply[]
  handler?: MockHandler
  /** added delay before every response @default 0 */
  latencyMs?: number
  /** when set, requests with another key get 401 */
  apiKey?: string
  /** keep the request journal; turn off for long benchmarks @default true */
  journal?: boolean
  /** enforce a provider's rate limit on chat and messages requests, described in rate-limit headers */
  rateLimit?: MockRateLimit
}

/** A running mock LLM server on a loopback ephemeral port. */
export interface MockLlmServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** base URL for the OpenAI SDK, for both `chat.completions` and `responses`: `${url}/v1` */
  readonly openaiBaseURL: string
  /** base URL for the Anthropic SDK: `url` (the SDK appends `/v1/messages`) */
  readonly anthropicBaseURL: string
  /** every request received, in order */
  readonly journal: readonly MockRequest[]
  /** scripted replies not used yet */
  readonly remaining: number
  /** requests answered 429 by the `rateLimit` option */
  readonly rateLimited: number
  /** appends replies to the script */
  enqueue(...replies: MockReply[]): void
  close(): Promise<void>
}

/**
 * A provider's rate limit as the mock server enforces it: a request budget and a token budget, each a bucket that
 * refills continuously, charged when a request arrives (as OpenAI and Anthropic do). Replies describe the budgets in
 * the called API's headers; a request over either budget gets a 429 with `retry-after-ms`.
 */
export interface MockRateLimit {
  requestsPerSecond?: number
  /** requests that may arrive at once @default one second's worth */
  requestBurst?: number
  tokensPerMinute?: number
  /** tokens that may be spent at once @default one second's worth */
  tokenBurst?: number
  /** send no rate-limit headers (a 429 still carries `retry-after-ms`), as many gateways do @default false */
  silent?: boolean
}
