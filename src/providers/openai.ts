import type OpenAI from 'openai'
import type { ClientOptions } from 'openai'
import { ConfigError, ProviderError, toError } from '../errors.ts'
import { abortError, toProviderError } from './errors-from-sdk.ts'
import { httpFetch } from './http-fetch.ts'
import { requiresMaxCompletionTokens, toOpenAiParams } from './openai-request.ts'
import { fromOpenAiCompletion, OpenAiStreamAccumulator } from './openai-response.ts'
import type { CallOptions, Completion, CompletionEvent, CompletionRequest, Provider } from './provider.ts'
import { reportRateLimit } from './rate-limit-headers.ts'

/** Options of a provider speaking OpenAI Chat Completions (OpenAI itself or a compatible server). */
export interface OpenAiProviderOptions {
  /** the model name the API expects, e.g. `gpt-4.1-mini` or `llama3.2` */
  model: string
  /** shown in reports and baselines @default `openai:${model}` */
  id?: string
  /** @default process.env.OPENAI_API_KEY; required unless the server needs none (then pass any string) */
  apiKey?: string
  /** include `/v1`, e.g. `http://localhost:11434/v1` @default process.env.OPENAI_BASE_URL ?? the OpenAI API */
  baseURL?: string
  /** per-request timeout of the SDK; the engine applies its own as well @default 600_000 */
  timeoutMs?: number
  /** extra headers sent with every request */
  headers?: Record<string, string>
  /** send `max_completion_tokens` rather than `max_tokens` @default true for o-series and gpt-5 models */
  maxCompletionTokens?: boolean
  /** the API's name in error messages @default 'OpenAI' */
  apiName?: string
  /**
   * the `fetch` the SDK sends requests with; pass `globalThis.fetch` to use Node's built-in one (for instance with an
   * undici global dispatcher) @default `httpFetch`, keep-alive `node:http(s)` at a fraction of the built-in's CPU cost
   */
  fetch?: typeof fetch
}

export class OpenAiProvider implements Provider {
  readonly id: string
  readonly capabilities = { structuredOutput: true }
  private readonly clientOptions: ClientOptions
  private loaded: Promise<OpenAI> | undefined
  private sdk: typeof OpenAI | undefined
  private readonly model: string
  private readonly apiKey: string
  private readonly apiName: string
  private readonly maxCompletionTokens: boolean

  constructor(options: OpenAiProviderOptions) {
    const apiKey = options.apiKey ?? process.env['OPENAI_API_KEY']
    if (!apiKey) {
      throw new ConfigError(
        `No API key for \`${options.id ?? `openai:${options.model}`}\`: set the OPENAI_API_KEY environment variable or pass \`apiKey\`.`,
      )
    }
    this.id = options.id ?? `openai:${options.model}`
    this.model = options.model
    this.apiKey = apiKey
    this.apiName = options.apiName ?? 'OpenAI'
    this.maxCompletionTokens = options.maxCompletionTokens ?? requiresMaxCompletionTokens(options.model)
    this.clientOptions = {
      apiKey,
      maxRetries: 0,
      fetch: options.fetch ?? httpFetch,
      logLevel: 'off',
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
    }
  }

  /** The SDK loads on the first call: importing it costs more than many runs take. */
  private async client(): Promise<OpenAI> {
    this.loaded ??= import('openai').then(({ default: sdk }) => {
      this.sdk = sdk
      return new sdk(this.clientOptions)
    })
    return this.loaded
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<Completion> {
    try {
      const { data, response } = await (
        await this.client()
      ).chat.completions
        .create({ ...this.params(request), stream: false }, { signal: options.signal })
        .withResponse()
      reportRateLimit(response.headers, options)
      return fromOpenAiCompletion(data)
    } catch (error) {
      throw this.toError(error, options.signal)
    }
  }

  async *stream(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent> {
    const accumulator = new OpenAiStreamAccumulator(this.model)
    try {
      const { data: stream, response } = await (
        await this.client()
      ).chat.completions
        .create(
          { ...this.params(request), stream: true, stream_options: { include_usage: true } },
          { signal: options.signal },
        )
        .withResponse()
      reportRateLimit(response.headers, options)
      for await (const chunk of stream) yield* accumulator.push(chunk)
    } catch (error) {
      throw this.toError(error, options.signal)
    }
    // the SDK ends an aborted stream quietly
    if (options.signal.aborted) throw abortError(options.signal)
    if (!accumulator.finished) {
      throw new ProviderError(
        `The ${this.apiName} stream for ${this.id} ended before the reply was complete`,
        {
          providerId: this.id,
          retryable: true,
        },
      )
    }
    yield { type: 'done', completion: accumulator.completion() }
  }

  private params(request: CompletionRequest): ReturnType<typeof toOpenAiParams> {
    return toOpenAiParams(request, { model: this.model, maxCompletionTokens: this.maxCompletionTokens })
  }

  private toError(error: unknown, signal: AbortSignal): Error {
    // without the SDK loaded, nothing it could have thrown is there to map
    if (!this.sdk) return toError(error)
    return toProviderError(error, {
      providerId: this.id,
      api: this.apiName,
      signal,
      sdk: this.sdk,
      secrets: [this.apiKey],
    })
  }
}
