import { ConfigError } from '../errors.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { LocalEmbeddingModel } from './local-embedding.ts'
import { OpenAiEmbeddingModel } from './openai-embedding.ts'
import type { EmbeddingModel, EmbeddingModelFactory } from './embedding-model.ts'

const factories = new Map<string, EmbeddingModelFactory>([
  ['local', () => new LocalEmbeddingModel()],
  ['openai', (model) => new OpenAiEmbeddingModel({ model })],
])

/** Adds a `prefix:` to embedding model ids, e.g. `registerEmbeddingModel('acme', (name) => new AcmeEmbeddings(name))`. */
export function registerEmbeddingModel(prefix: string, factory: EmbeddingModelFactory): void {
  factories.set(prefix, factory)
}

/**
 * Turns an embedding model id (`local`, `openai:text-embedding-3-small`, …) into a model; a ConfigError when the
 * prefix is unknown or its API key is not set. No SDK loads before the first `embed`.
 */
export function resolveEmbeddingModel(id: string): EmbeddingModel {
  const colon = id.indexOf(':')
  const prefix = colon === -1 ? id : id.slice(0, colon)
  const factory = factories.get(prefix)
  if (!factory) {
    const suggestion = didYouMean(prefix, factories.keys())
    throw new ConfigError(
      `Unknown embedding model \`${id}\`.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Use \`local\` or \`provider:model\` with one of: ${[...factories.keys()].join(', ')}.`,
    )
  }
  return factory(colon === -1 ? '' : id.slice(colon + 1))
}

/** The cosine of the angle between two vectors of one length; 0 when either is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    dot += x * y
    normA += x * x
    normB += y * y
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}
