import { ProviderError } from '../errors.ts'
import { abortError } from './errors-from-sdk.ts'
import { OpenAiClient, type OpenAiClientOptions } from './openai-client.ts'
import { toResponsesParams } from './openai-responses-request.ts'
import { fromResponse, ResponsesStreamAccumulator } from './openai-responses-response.ts'
import { reportRateLimit } from './rate-limit-headers.ts'
import type { CallOptions, Completion, CompletionEvent, CompletionRequest, Provider } from './provider.ts'

/** Options of a provider speaking the OpenAI Responses API (`POST /v1/responses`). */
export interface OpenAiResponsesProviderOptions extends Omit<OpenAiClientOptions, 'id'> {
  /** the model name the API expects, e.g. `gpt-4.1-mini` */
  model: string
  /** shown in reports and baselines @default `openai-responses:${model}` */
  id?: string
  /**
   * let OpenAI store responses and reasoning items (30 days), so earlier reasoning goes back by id; off, reasoning
   * models send it back encrypted instead, which also works for organisations with zero data retention @default false
   */
  store?: boolean
}

/**
 * The OpenAI Responses API, stateless: every call sends the whole conversation, with earlier reasoning items
 * (encrypted, or by id when `store` is on) so a reasoning model keeps its train of thought across tool calls.
 */
export class OpenAiResponsesProvider implements Provider {
  readonly id: string
  readonly capabilities = { structuredOutput: true }
  readonly #sdk: OpenAiClient
  readonly #model: string
  readonly #store: boolean

  constructor(options: OpenAiResponsesProviderOptions) {
    this.id = options.id ?? `openai-responses:${options.model}`
    this.#sdk = new OpenAiClient({ ...options, id: this.id })
    this.#model = options.model
    this.#store = options.store ?? false
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<Completion> {
    try {
      const params = toResponsesParams(request, this.#model, this.#store)
      const { data, response } = await (
        await this.#sdk.client()
      ).responses
        .create({ ...params, stream: false }, { signal: options.signal })
        .withResponse()
      reportRateLimit(response.headers, options)
      return fromResponse(data, this.id)
    } catch (error) {
      throw this.#sdk.toError(error, options.signal)
    }
  }

  async *stream(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent> {
    const accumulator = new ResponsesStreamAccumulator(this.id)
    try {
      const params = toResponsesParams(request, this.#model, this.#store)
      const { data: stream, response } = await (
        await this.#sdk.client()
      ).responses
        .create({ ...params, stream: true }, { signal: options.signal })
        .withResponse()
      reportRateLimit(response.headers, options)
      for await (const event of stream) {
        yield* accumulator.push(event)
        if (accumulator.finished) break
      }
    } catch (error) {
      throw this.#sdk.toError(error, options.signal)
    }
    // the SDK ends an aborted stream quietly
    if (options.signal.aborted) throw abortError(options.signal)
    if (!accumulator.finished) {
      throw new ProviderError(
        `The OpenAI Responses stream for ${this.id} ended before \`response.completed\``,
        {
          providerId: this.id,
          retryable: true,
        },
      )
    }
    yield { type: 'done', completion: accumulator.completion() }
  }
}
