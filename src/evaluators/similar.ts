import type { EmbeddingModel } from '../providers/embedding-model.ts'
import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { code, preview } from './describe.ts'
import { formatScore, referenceList, referenceOptions, referenceSchemas } from './references.ts'

export const similar = defineEvaluator({
  kind: 'similar',
  description:
    'The cosine similarity of the output’s embedding to this string’s (the best of several) is at least `threshold`; `model` picks the embedding model.',
  ...referenceSchemas({
    threshold: z.number().min(-1).max(1).optional().describe('the lowest passing cosine @default 0.75'),
    model: z
      .string()
      .min(1)
      .optional()
      .describe('embedding model: `local` (offline bag of words) or `openai:<model>` @default local'),
  }),
  fromShorthand: referenceOptions,
  create: ({ value, threshold = 0.75, model = 'local' }) => {
    // the providers load only when a case has a `similar` check
    const embedding = import('../providers/embedding.ts')
    const resolved = embedding.then(({ resolveEmbeddingModel }) => resolveEmbeddingModel(model))
    // an unknown model or a missing key is reported by the cases that use it
    resolved.catch(() => undefined)
    const references = referenceList(value)
    return {
      name: 'similar',
      usesModel: true,
      evaluate: async ({ output }, { signal }) => {
        const embedder: EmbeddingModel = await resolved
        const { cosineSimilarity } = await embedding
        const vectors = await embedder.embed([output, ...references], { signal })
        if (vectors.length !== references.length + 1) {
          throw new Error(
            `${code(embedder.id)} returned ${vectors.length} embeddings for ${references.length + 1} texts`,
          )
        }
        const [vector = [], ...known] = vectors
        const [best, cosine] = nearest(
          known.map((reference) => cosineSimilarity(vector, reference)),
          references,
        )
        const score = Math.max(cosine, 0)
        const seen = `cosine similarity ${formatScore(cosine)} to ${preview(best, 40)} (${code(embedder.id)})`
        return cosine >= threshold
          ? { pass: true, score, reason: `${seen}, at least ${threshold}` }
          : { pass: false, score, reason: `${seen}, expected at least ${threshold}: ${preview(output)}` }
      },
    }
  },
})

/** the reference with the highest cosine, and that cosine */
function nearest(cosines: number[], references: string[]): [string, number] {
  let best: [string, number] = [references[0] ?? '', -Infinity]
  cosines.forEach((cosine, index) => {
    if (cosine > best[1]) best = [references[index] ?? '', cosine]
  })
  return best
}
