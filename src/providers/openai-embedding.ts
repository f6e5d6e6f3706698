import type OpenAI from 'openai'
import { ConfigError } from '../errors.ts'
import { toProviderError } from './errors-from-sdk.ts'
import type { EmbeddingModel } from './embedding-model.ts'

/** Options of the OpenAI embeddings API (or a compatible server's). */
export interface OpenAiEmbeddingModelOptions {
  /** e.g. `text-embedding-3-small` */
  model: string
  /** @default process.env.OPENAI_API_KEY */
  apiKey?: string
  /** include `/v1` @default process.env.OPENAI_BASE_URL ?? the OpenAI API */
  baseURL?: string
}

/** `openai:<model>`: texts embedded by the real `openai` SDK's `embeddings.create`. */
export class OpenAiEmbeddingModel implements EmbeddingModel {
  readonly id: string
  private readonly apiKey: string
  private readonly baseURL: string | undefined
  private readonly model: string
  private client: Promise<{ sdk: typeof OpenAI; client: OpenAI }> | undefined

  constructor(options: OpenAiEmbeddingModelOptions) {
    this.id = `openai:${options.model}`
    if (!options.model)
      throw new ConfigError('Embedding model `openai:` names no model: write `openai:<model>`.')
    const apiKey = options.apiKey ?? process.env['OPENAI_API_KEY']
    if (!apiKey) {
      throw new ConfigError(
        `No API key for the embedding model \`${this.id}\`: set the OPENAI_API_KEY environment variable.`,
      )
    }
    this.apiKey = apiKey
    this.model = options.model
    this.baseURL = options.baseURL ?? (process.env['OPENAI_BASE_URL'] || undefined)
  }

  async embed(texts: readonly string[], options: { signal: AbortSignal }): Promise<number[][]> {
    const { sdk, client } = await (this.client ??= this.load())
    try {
      const response = await client.embeddings.create(
        { model: this.model, input: [...texts], encoding_format: 'float' },
        { signal: options.signal },
      )
      return [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding)
    } catch (error) {
      throw toProviderError(error, {
        providerId: this.id,
        api: 'OpenAI',
        signal: options.signal,
        sdk,
        secrets: [this.apiKey],
      })
    }
  }

  private async load(): Promise<{ sdk: typeof OpenAI; client: OpenAI }> {
    const [{ default: sdk }, { httpFetch }] = await Promise.all([import('openai'), import('./http-fetch.ts')])
    const client = new sdk({
      apiKey: this.apiKey,
      maxRetries: 0,
      fetch: httpFetch,
      logLevel: 'off',
      ...(this.baseURL === undefined ? {} : { baseURL: this.baseURL }),
    })
    return { sdk, client }
  }
}
