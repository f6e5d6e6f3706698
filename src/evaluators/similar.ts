import { ConfigError } from '../errors.ts'
import { cosineSimilarity, resolveEmbeddingModel } from '../providers/embedding.ts'
import { defineEvaluator } from './definition.ts'
import { code, preview } from './describe.ts'
import { formatScore, referenceList, referenceOptions, referenceSchemas } from './references.ts'

export const similar = defineEvaluator({
  kind: 'similar',
  description:
    'The cosine similarity of the output’s embedding to this string’s (the best of several) is at least `threshold`; `model` picks the embedding model.',
  schemas: (z) =>
    referenceSchemas(z, {
      threshold: z.number().min(-1).max(1).optional().describe('the lowest passing cosine @default 0.75'),
      model: z
        .string()
        .min(1)
        // an unknown model or a missing API key is found with the case file, before anything runs
        .superRefine((id, context) => {
          const problem = embeddingModelProblem(id)
          if (problem !== undefined) context.addIssue({ code: 'custom', message: problem })
        })
        .optional()
        .describe('embedding model: `local` (offline bag of words) or `openai:<model>` @default local'),
    }),
  fromShorthand: referenceOptions,
  create: ({ value, threshold = 0.75, model = 'local' }) => {
    const embedder = resolveEmbeddingModel(model)
    const references = referenceList(value)
    return {
      name: 'similar',
      evaluate: async ({ output }, { signal }) => {
        const [vector = [], ...known] = await embedder.embed([output, ...references], { signal })
        const [best, score] = nearest(vector, known, references)
        const seen = `cosine similarity ${formatScore(score)} to ${preview(best, 40)} (${code(embedder.id)})`
        return score >= threshold
          ? { pass: true, score: Math.max(score, 0), reason: `${seen}, at least ${threshold}` }
          : {
              pass: false,
              score: Math.max(score, 0),
              reason: `${seen}, expected at least ${threshold}: ${preview(output)}`,
            }
      },
    }
  },
})

function nearest(vector: number[], known: number[][], references: string[]): [string, number] {
  let best: [string, number] = [references[0] ?? '', -Infinity]
  known.forEach((reference, index) => {
    const score = cosineSimilarity(vector, reference)
    if (score > best[1]) best = [references[index] ?? '', score]
  })
  return best
}

function embeddingModelProblem(id: string): string | undefined {
  try {
    resolveEmbeddingModel(id)
    return undefined
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
}
