import { z } from 'zod'
import { expected } from './definition.ts'

/**
 * Schemas of a check graded against reference text: the long form is `{ value, ...shape }`, and the shorthand is
 * the reference(s) alone or the long form itself.
 */
export function referenceSchemas<Shape extends z.ZodRawShape>(shape: Shape) {
  const references = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
    error: expected('a reference string or a list of them'),
  })
  const options = z.strictObject({ value: references, ...shape })
  return { options, shorthand: z.union([references, options]) }
}

/** The long form of a reference check's shorthand. */
export function referenceOptions<Options extends object>(
  value: string | string[] | Options,
): Options | { value: string | string[] } {
  return typeof value === 'object' && !Array.isArray(value) ? value : { value }
}

/** The references as a list. */
export function referenceList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value
}

/** `0.82`: a score as reasons show it. */
export function formatScore(score: number): string {
  return score.toFixed(2)
}

/** Words for n-gram metrics: runs of letters and digits, lowercased, so case and punctuation do not count. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** The n-grams of `tokens` with their counts. */
export function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join('\u0000')
    counts.set(gram, (counts.get(gram) ?? 0) + 1)
  }
  return counts
}

/** How many of the n-grams in `candidate` also occur in `reference`, each counted at most as often as there. */
export function clippedOverlap(candidate: Map<string, number>, reference: Map<string, number>): number {
  let overlap = 0
  for (const [gram, count] of candidate) overlap += Math.min(count, reference.get(gram) ?? 0)
  return overlap
}
