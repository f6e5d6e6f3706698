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

export const bleu = defineEvaluator({
  kind: 'bleu',
  description:
    'Sentence BLEU-4 of the output against the reference(s), with brevity penalty and add-one smoothing (as NLTK `sentence_bleu` with smoothing method 2), is at least `threshold`.',
  ...referenceSchemas({
    threshold: z.number().min(0).max(1).optional().describe('the lowest passing score @default 0.5'),
  }),
  fromShorthand: referenceOptions,
  create: ({ value, threshold = 0.5 }) => {
    const references = referenceList(value).map(words)
    return {
      name: 'bleu',
      evaluate: ({ output }) => {
        const score = bleuScore(words(output), references)
        const seen = `BLEU ${formatScore(score)}`
        return score >= threshold
          ? { pass: true, score, reason: `${seen}, at least ${threshold}` }
          : { pass: false, score, reason: `${seen}, expected at least ${threshold}: ${preview(output)}` }
      },
    }
  },
})

/**
 * BLEU-4 (Papineni et al. 2002): BP · exp(Σₙ ¼ · log pₙ), where pₙ is the n-gram precision clipped by the most
 * times any reference has the n-gram, BP = 1 if c > r else e^(1 − r/c) with c the candidate's length and r the
 * closest reference length; pₙ for n ≥ 2 add one to numerator and denominator (Lin & Och 2004), so a short
 * sentence without a 4-gram match does not score 0. As NLTK's `sentence_bleu` with `SmoothingFunction().method2`:
 * a candidate with no n-grams of some order (under 4 words) counts that order's precision as 0 of 1, so smoothed
 * ½, not 1 of 1; and no unigram match scores 0.
 */
export function bleuScore(candidate: readonly string[], references: readonly (readonly string[])[]): number {
  if (candidate.length === 0) return 0
  let logPrecisions = 0
  for (let n = 1; n <= 4; n++) {
    const grams = ngramCounts(candidate, n)
    const most = new Map<string, number>()
    for (const reference of references) {
      for (const [gram, count] of ngramCounts(reference, n))
        most.set(gram, Math.max(count, most.get(gram) ?? 0))
    }
    const matched = clippedOverlap(grams, most)
    // NLTK's modified_precision divides by at least 1: a candidate too short for n-grams has p = 0/1, not 0/0
    const total = Math.max(candidate.length - n + 1, 1)
    const smoothing = n === 1 ? 0 : 1
    if (matched + smoothing === 0) return 0
    logPrecisions += Math.log((matched + smoothing) / (total + smoothing)) / 4
  }
  const c = candidate.length
  const r = closestLength(c, references)
  const brevity = c > r ? 1 : Math.exp(1 - r / c)
  return brevity * Math.exp(logPrecisions)
}

/** the reference length nearest to `length`, the shorter on a tie */
function closestLength(length: number, references: readonly (readonly string[])[]): number {
  let best = Infinity
  for (const { length: r } of references) {
    if (
      Math.abs(r - length) < Math.abs(best - length) ||
      (Math.abs(r - length) === Math.abs(best - length) && r < best)
    )
      best = r
  }
  return best
}
