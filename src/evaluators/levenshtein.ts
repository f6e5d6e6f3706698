import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { preview } from './describe.ts'
import { formatScore, referenceList, referenceOptions, referenceSchemas } from './references.ts'

export const levenshtein = defineEvaluator({
  kind: 'levenshtein',
  description:
    'The output is within `max_distance` character edits (Levenshtein distance) of this string, or of one of these strings.',
  ...referenceSchemas({
    max_distance: z.int().nonnegative().optional().describe('the most edits allowed @default 5'),
  }),
  fromShorthand: referenceOptions,
  create: ({ value, max_distance = 5 }) => {
    const references = referenceList(value)
    return {
      name: 'levenshtein',
      evaluate: async ({ output }) => {
        // loaded only when a case has a `levenshtein` check
        const { distance } = await import('fastest-levenshtein')
        const [best, edits] = closest(output, references, distance)
        const score = 1 - edits / Math.max(output.length, best.length, 1)
        const seen = `${edits} edit${edits === 1 ? '' : 's'} from ${preview(best)}`
        return edits <= max_distance
          ? { pass: true, score, reason: `output is ${seen}, at most ${max_distance}` }
          : {
              pass: false,
              score,
              reason: `output is ${seen} (similarity ${formatScore(score)}), expected at most ${max_distance}: ${preview(output)}`,
            }
      },
    }
  },
})

/** the reference nearest to `output`, and its distance */
function closest(
  output: string,
  references: readonly string[],
  distance: (a: string, b: string) => number,
): [string, number] {
  let best: [string, number] = ['', Infinity]
  for (const reference of references) {
    const edits = distance(output, reference)
    if (edits < best[1]) best = [reference, edits]
  }
  return best
}
