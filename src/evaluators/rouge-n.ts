import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { preview } from './describe.ts'
import {
  clippedOverlap,
  formatScore,
  ngramCounts,
  referenceList,
  referenceOptions,
  referenceSchemas,
  words,
} from './references.ts'

export const rougeN = defineEvaluator({
  kind: 'rouge_n',
  description:
    'ROUGE-N recall of the output against the reference(s) (the best one counts) is at least `threshold`.',
  ...referenceSchemas({
    n: z.int().min(1).max(4).optional().describe('n-gram length @default 1'),
    threshold: z.number().min(0).max(1).optional().describe('the lowest passing score @default 0.75'),
  }),
  fromShorthand: referenceOptions,
  create: ({ value, n = 1, threshold = 0.75 }) => {
    const references = referenceList(value).map((text) => ngramCounts(words(text), n))
    return {
      name: 'rouge_n',
      evaluate: ({ output }) => {
        const candidate = ngramCounts(words(output), n)
        const score = Math.max(...references.map((reference) => rougeRecall(candidate, reference)))
        const seen = `ROUGE-${n} ${formatScore(score)}`
        return score >= threshold
          ? { pass: true, score, reason: `${seen}, at least ${threshold}` }
          : { pass: false, score, reason: `${seen}, expected at least ${threshold}: ${preview(output)}` }
      },
    }
  },
})

/** Lin (2004): the share of the reference's n-grams that the candidate has, counts clipped. */
function rougeRecall(candidate: Map<string, number>, reference: Map<string, number>): number {
  let total = 0
  for (const count of reference.values()) total += count
  return total === 0 ? 0 : clippedOverlap(candidate, reference) / total
}
