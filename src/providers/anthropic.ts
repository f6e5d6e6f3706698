import type Anthropic from '@anthropic-ai/sdk'
import type { ClientOptions } from '@anthropic-ai/sdk'
import { ConfigError, ProviderError, toError } from '../errors.ts'
import { defaultAnthropicMaxTokens, toAnthropicParams } from './anthropic-request.ts'
import { AnthropicStreamAccumulator, fromAnthropicMessage } from './anthropic-response.ts'
import { abortError, toProviderError } from './errors-from-sdk.ts'
import { httpFetch } from './http-fetch.ts'
import { markedAsOwn } from './own-call.ts'
import type { CallOptions, Completion, CompletionEvent, CompletionRequest, Provider } from './provider.ts'
import { reportRateLimit } from './rate-limit-headers.ts'

/** Options of a provider speaking the Anthropic Messages API. */
export interface AnthropicProviderOptions {
  /** the model name the API expects, e.g. `claude-sonnet-4-5` */
  model: string
  /** shown in reports and baselines @default `anthropic:${model}` */
  id?: string
  /** @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string
  /** without `/v1` @default process.env.ANTHROPIC_BASE_URL ?? the Anthropic API */
  baseURL?: string
  /** per-request timeout of the SDK; the engine applies its own as well @default 600_000 */
  timeoutMs?: number
  /** extra headers sent with every request */
  headers?: Record<string, string>
  /** `max_tokens` when the request's settings give none @default 4096 */
  maxTokens?: number
  /**
   * the `fetch` the SDK sends requests with; pass `globalThis.fetch` to use Node's built-in one (for instance with an
   * undici global dispatcher) @default `httpFetch`, keep-alive `node:http(s)` at a fraction of the built-in's CPU cost
   */
  fetch?: typeof fetch
}

export class AnthropicProvider implements Provider {
  readonly id: string
  readonly capabilities = { structuredOutput: true }
  private readonly clientOptions: ClientOptions
  private loaded: Promise<Anthropic> | undefined
  private sdk: typeof Anthropic | undefined
  private readonly model: string
  private readonly apiKey: string
  private readonly maxTokens: number

  constructor(options: AnthropicProviderOptions) {
    const apiKey = options.apiKey ?? process.env['ANTHROPIC_API_KEY']
    if (!apiKey) {
      throw new ConfigError(
        `No API key for \`${options.id ?? `anthropic:${options.model}`}\`: set the ANTHROPIC_API_KEY environment variable or pass \`apiKey\`.`,
      )
    }
    this.id = options.id ?? `anthropic:${options.model}`
    this.model = options.model
    this.apiKey = apiKey
    this.maxTokens = options.maxTokens ?? defaultAnthropicMaxTokens
    this.clientOptions = {
      apiKey,
      maxRetries: 0,
      fetch: markedAsOwn(options.fetch ?? httpFetch),
      logLevel: 'off',
      // a fixed timeout also keeps the SDK from refusing large `max_tokens` without streaming
      timeout: options.timeoutMs ?? 600_000,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
    }
  }

  /** The SDK loads on the first call: importing it costs more than many runs take. */
  private async client(): Promise<Anthropic> {
    this.loaded ??= import('@anthropic-ai/sdk').then(({ default: sdk }) => {
      this.sdk = sdk
      return new sdk(this.clientOptions)
    })
    return this.loaded
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<Completion> {
    try {
      const params = toAnthropicParams(request, this.model, this.maxTokens)
      const { data, response } = await (
        await this.client()
      ).messages
        .create({ ...params, stream: false }, { signal: options.signal })
        .withResponse()
      reportRateLimit(response.headers, options)
      return fromAnthropicMessage(data)
    } catch (error) {
      throw this.toError(error, options.signal)
    }
  }

  async *stream(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent> {
    const accumulator = new AnthropicStreamAccumulator(this.model)
    try {
      const params = toAnthropicParams(request, this.model, this.maxTokens)
      const { data: stream, response } = await (
        await this.client()
      ).messages
        .create({ ...params, stream: true }, { signal: options.signal })
        .withResponse()
      reportRateLimit(response.headers, options)
      for await (const event of stream) yield* accumulator.push(event)
    } catch (error) {
      throw this.toError(error, options.signal)
    }
    // the SDK ends an aborted stream quietly
    if (options.signal.aborted) throw abortError(options.signal)
    if (!accumulator.finished) {
      throw new ProviderError(`The Anthropic stream for ${this.id} ended before \`message_stop\``, {
        providerId: this.id,
        retryable: true,
      })
    }
    yield { type: 'done', completion: accumulator.completion() }
  }

  private toError(error: unknown, signal: AbortSignal): Error {
    // without the SDK loaded, nothing it could have thrown is there to map
    if (!this.sdk) return toError(error)
    return toProviderError(error, {
      providerId: this.id,
      api: 'Anthropic',
      signal,
      sdk: this.sdk,
      secrets: [this.apiKey],
    })
  }
}
