import { ProviderError } from '../errors.ts'
import { abortError } from './errors-from-sdk.ts'
import { OpenAiClient, type OpenAiClientOptions } from './openai-client.ts'
import { requiresMaxCompletionTokens, toOpenAiParams } from './openai-request.ts'
import { fromOpenAiCompletion, OpenAiStreamAccumulator } from './openai-response.ts'
import type { CallOptions, Completion, CompletionEvent, CompletionRequest, Provider } from './provider.ts'
import { reportRateLimit } from './rate-limit-headers.ts'

/** Options of a provider speaking OpenAI Chat Completions (OpenAI itself or a compatible server). */
export interface OpenAiProviderOptions extends Omit<OpenAiClientOptions, 'id'> {
  /** the model name the API expects, e.g. `gpt-4.1-mini` or `llama3.2` */
  model: string
  /** shown in reports and baselines @default `openai:${model}` */
  id?: string
  /** send `max_completion_tokens` rather than `max_tokens` @default true for o-series and gpt-5 models */
  maxCompletionTokens?: boolean
}

export class OpenAiProvider implements Provider {
  readonly id: string
  readonly capabilities = { structuredOutput: true }
  readonly #sdk: OpenAiClient
  private readonly model: string
  private readonly maxCompletionTokens: boolean

  constructor(options: OpenAiProviderOptions) {
    this.id = options.id ?? `openai:${options.model}`
    this.#sdk = new OpenAiClient({ ...options, id: this.id })
    this.model = options.model
    this.maxCompletionTokens = options.maxCompletionTokens ?? requiresMaxCompletionTokens(options.model)
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<Completion> {
    try {
      const { data, response } = await (
        await this.#sdk.client()
      ).chat.completions
        .create({ ...this.params(request), stream: false }, { signal: options.signal })
        .withResponse()
      reportRateLimit(response.headers, options)
      return fromOpenAiCompletion(data)
    } catch (error) {
      throw this.#sdk.toError(error, options.signal)
    }
  }

  async *stream(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent> {
    const accumulator = new OpenAiStreamAccumulator(this.model)
    try {
      const { data: stream, response } = await (
        await this.#sdk.client()
      ).chat.completions
        .create(
          { ...this.params(request), stream: true, stream_options: { include_usage: true } },
          { signal: options.signal },
        )
        .withResponse()
      reportRateLimit(response.headers, options)
      for await (const chunk of stream) yield* accumulator.push(chunk)
    } catch (error) {
      throw this.#sdk.toError(error, options.signal)
    }
    // the SDK ends an aborted stream quietly
    if (options.signal.aborted) throw abortError(options.signal)
    if (!accumulator.finished) {
      throw new ProviderError(
        `The ${this.#sdk.apiName} stream for ${this.id} ended before the reply was complete`,
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
}
