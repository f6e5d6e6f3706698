import type OpenAI from 'openai'
import type { ClientOptions } from 'openai'
import { ConfigError, toError } from '../errors.ts'
import { toProviderError } from './errors-from-sdk.ts'
import { httpFetch } from './http-fetch.ts'
import { markedAsOwn } from './own-call.ts'

/** How to reach an OpenAI-style API: shared by the Chat Completions and Responses providers. */
export interface OpenAiClientOptions {
  /** shown in reports and baselines */
  id: string
  /** @default process.env.OPENAI_API_KEY; required unless the server needs none (then pass any string) */
  apiKey?: string
  /** include `/v1`, e.g. `http://localhost:11434/v1` @default process.env.OPENAI_BASE_URL ?? the OpenAI API */
  baseURL?: string
  /** per-request timeout of the SDK; the engine applies its own as well @default 600_000 */
  timeoutMs?: number
  /** extra headers sent with every request */
  headers?: Record<string, string>
  /** the API's name in error messages @default 'OpenAI' */
  apiName?: string
  /**
   * the `fetch` the SDK sends requests with; pass `globalThis.fetch` to use Node's built-in one (for instance with an
   * undici global dispatcher) @default `httpFetch`, keep-alive `node:http(s)` at a fraction of the built-in's CPU cost
   */
  fetch?: typeof fetch
}

/** The `openai` SDK client, loaded on the first call, and the mapping of what it throws to our errors. */
export class OpenAiClient {
  readonly apiName: string
  readonly #id: string
  readonly #apiKey: string
  readonly #options: ClientOptions
  #loaded: Promise<OpenAI> | undefined
  #sdk: typeof OpenAI | undefined

  constructor(options: OpenAiClientOptions) {
    const apiKey = options.apiKey ?? process.env['OPENAI_API_KEY']
    if (!apiKey) {
      throw new ConfigError(
        `No API key for \`${options.id}\`: set the OPENAI_API_KEY environment variable or pass \`apiKey\`.`,
      )
    }
    this.#id = options.id
    this.#apiKey = apiKey
    this.apiName = options.apiName ?? 'OpenAI'
    this.#options = {
      apiKey,
      maxRetries: 0,
      fetch: markedAsOwn(options.fetch ?? httpFetch),
      logLevel: 'off',
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
    }
  }

  /** The SDK loads on the first call: importing it costs more than many runs take. */
  client(): Promise<OpenAI> {
    this.#loaded ??= import('openai').then(({ default: sdk }) => {
      this.#sdk = sdk
      return new sdk(this.#options)
    })
    return this.#loaded
  }

  toError(error: unknown, signal: AbortSignal): Error {
    // without the SDK loaded, nothing it could have thrown is there to map
    if (!this.#sdk) return toError(error)
    return toProviderError(error, {
      providerId: this.#id,
      api: this.apiName,
      signal,
      sdk: this.#sdk,
      secrets: [this.#apiKey],
    })
  }
}
