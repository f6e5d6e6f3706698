import { toError } from '../errors.ts'
import type { EmbeddingModel } from './embedding-model.ts'

const dimensions = 512

/**
 * The `local` embedding model: a deterministic offline bag of words. Each lowercased word is hashed (FNV-1a) to
 * one of 512 signed dimensions and weighted 1 + ln(count); the vector is then scaled to length 1. Texts sharing
 * words score close; it knows no synonyms, so it suits offline runs and tests, not semantic grading.
 */
export class LocalEmbeddingModel implements EmbeddingModel {
  readonly id = 'local'

  embed(texts: readonly string[], options: { signal: AbortSignal }): Promise<number[][]> {
    if (options.signal.aborted) return Promise.reject(toError(options.signal.reason))
    return Promise.resolve(texts.map(localEmbedding))
  }
}

/** The `local` model's vector of one text. */
export function localEmbedding(text: string): number[] {
  const counts = new Map<string, number>()
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    counts.set(word, (counts.get(word) ?? 0) + 1)
  const vector = new Array<number>(dimensions).fill(0)
  for (const [word, count] of counts) {
    const hash = fnv1a(word)
    const index = hash % dimensions
    vector[index] = (vector[index] ?? 0) + (hash & 0x8000_0000 ? -1 : 1) * (1 + Math.log(count))
  }
  const norm = Math.hypot(...vector)
  return norm === 0 ? vector : vector.map((value) => value / norm)
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
