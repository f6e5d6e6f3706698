import { ConfigError, ProviderError } from '../errors.ts'
import { fromAiSdkError, toHeaders } from './ai-sdk-errors.ts'
import {
  isAiSdkLanguageModel,
  type AiSdkLanguageModel,
  type AiSdkModelCalls,
  type AiSdkProviderMetadata,
  type AiSdkStreamPart,
} from './ai-sdk-model.ts'
import { toAiSdkCallOptions } from './ai-sdk-request.ts'
import { AiSdkStreamAccumulator, fromGenerateResult } from './ai-sdk-response.ts'
import { abortError } from './errors-from-sdk.ts'
import type { CallOptions, Completion, CompletionEvent, CompletionRequest, Provider } from './provider.ts'
import { reportRateLimit } from './rate-limit-headers.ts'

/** Options of a provider that calls a model of an AI SDK provider package. */
export interface AiSdkProviderOptions {
  /**
   * the model, as the provider package makes it (`google('gemini-2.5-flash')`, `bedrock('anthropic.claude-…')`), or a
   * function that loads it on the first call
   */
  model: AiSdkLanguageModel | (() => Promise<AiSdkLanguageModel>)
  /**
   * shown in reports and baselines; its `vendor:` part picks the price table @default the model's vendor and id, e.g.
   * `google:gemini-2.5-flash` for a model whose `provider` is `google.generative-ai`
   */
  id?: string
  /** sent with every call, merged over the options the bridge derives (reasoning), e.g. `{ google: { … } }` */
  providerOptions?: AiSdkProviderMetadata
  /** strings that must never appear in an error message (API keys the model was made with) */
  secrets?: readonly string[]
}

/**
 * Any AI SDK provider package's language model (specification V2, V3 or V4) as a Provider: tool calls, structured
 * output, usage with cache tokens, streaming and aborts behave as with our own providers. The model's own retries are
 * not used (`doGenerate` makes one request): its errors become `ProviderError`s with status, `retryable` and
 * retry-after, and the engine's retry policy decides.
 */
export class AiSdkProvider implements Provider {
  readonly id: string
  readonly capabilities = { structuredOutput: true }
  readonly #load: () => Promise<AiSdkLanguageModel>
  #loaded: Promise<AiSdkModelCalls> | undefined
  readonly #providerOptions: AiSdkProviderMetadata | undefined
  readonly #secrets: readonly string[]

  constructor(options: AiSdkProviderOptions) {
    const model = options.model
    if (typeof model !== 'function' && !isAiSdkLanguageModel(model)) throw notAModel(model)
    if (typeof model !== 'function') this.#loaded = Promise.resolve(model as unknown as AiSdkModelCalls)
    this.#load = typeof model === 'function' ? model : () => Promise.resolve(model)
    if (options.id === undefined && typeof model === 'function') {
      throw new ConfigError('AiSdkProvider: pass `id` when `model` is a function that loads the model.')
    }
    this.id = options.id ?? defaultId(model as AiSdkLanguageModel)
    this.#providerOptions = options.providerOptions
    this.#secrets = options.secrets ?? []
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<Completion> {
    const { signal } = options
    try {
      stopIfAborted(signal)
      const model = await this.#model()
      const call = toAiSdkCallOptions(request, model.provider, this.#providerOptions)
      const result = await untilAborted(model.doGenerate({ ...call, abortSignal: signal }), signal)
      const headers = toHeaders(result.response?.headers)
      if (headers) reportRateLimit(headers, options)
      return fromGenerateResult(result, model.modelId, this.id, request.output !== undefined)
    } catch (error) {
      throw this.#toError(error, signal)
    }
  }

  async *stream(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent> {
    const { signal } = options
    let accumulator: AiSdkStreamAccumulator | undefined
    try {
      stopIfAborted(signal)
      const model = await this.#model()
      accumulator = new AiSdkStreamAccumulator(model.modelId, this.id, (error) =>
        this.#toError(error, signal),
      )
      const call = toAiSdkCallOptions(request, model.provider, this.#providerOptions)
      const result = await untilAborted(model.doStream({ ...call, abortSignal: signal }), signal)
      const headers = toHeaders(result.response?.headers)
      if (headers) reportRateLimit(headers, options)
      for await (const part of readParts(result.stream, signal)) {
        yield* accumulator.push(part)
      }
    } catch (error) {
      throw this.#toError(error, signal)
    }
    if (signal.aborted) throw abortError(signal)
    if (!accumulator.finished) {
      throw new ProviderError(`The stream of ${this.id} ended before its \`finish\` part`, {
        providerId: this.id,
        retryable: true,
      })
    }
    yield { type: 'done', completion: accumulator.completion() }
  }

  #model(): Promise<AiSdkModelCalls> {
    this.#loaded ??= this.#load().then((model) => {
      if (!isAiSdkLanguageModel(model)) throw notAModel(model)
      return model as unknown as AiSdkModelCalls
    })
    return this.#loaded
  }

  #toError(error: unknown, signal: AbortSignal): Error {
    return fromAiSdkError(error, { providerId: this.id, signal, secrets: this.#secrets })
  }
}

function defaultId(model: AiSdkLanguageModel): string {
  const vendor = model.provider.split('.')[0] ?? model.provider
  return `${vendor === 'amazon-bedrock' ? 'bedrock' : vendor}:${model.modelId}`
}

function notAModel(value: unknown): ConfigError {
  const version = (value as { specificationVersion?: unknown } | null)?.specificationVersion
  const what =
    typeof version === 'string'
      ? `a model of AI SDK specification \`${version}\`; this version of agent-evals speaks v2, v3 and v4`
      : 'not an AI SDK language model'
  return new ConfigError(
    `AiSdkProvider: \`model\` is ${what}. Pass what a provider package makes, e.g. \`google('gemini-2.5-flash')\`.`,
  )
}

/** Before a call: a signal that already fired sends no request. */
function stopIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal)
}

/** Settles with the signal's reason as soon as it fires, whether or not the model honours its abort signal. */
function untilAborted<T>(work: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      // the work's own failure (its abort) is not news
      Promise.resolve(work).then(undefined, () => undefined)
      reject(abortError(signal))
      return
    }
    const onAbort = (): void => {
      reject(abortError(signal))
    }
    signal.addEventListener('abort', onAbort, { once: true })
    Promise.resolve(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown, mapped by the caller
        reject(error)
      },
    )
  })
}

/** The stream's parts, read until it ends or the signal fires (then the reader is cancelled). */
async function* readParts(
  stream: ReadableStream<AiSdkStreamPart>,
  signal: AbortSignal,
): AsyncGenerator<AiSdkStreamPart> {
  const reader = stream.getReader()
  try {
    while (true) {
      const { done, value } = await untilAborted(reader.read(), signal)
      if (done) return
      yield value
    }
  } finally {
    // stops the request when the loop ends early (abort, an error part); a no-op on a finished stream
    reader.cancel().catch(() => undefined)
  }
}
