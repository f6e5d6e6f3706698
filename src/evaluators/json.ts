import { z } from 'zod'
import { extractJson } from '../engine/structured.ts'
import type { Transcript } from '../types.ts'
import { findMismatch } from './deep-match.ts'
import { defineEvaluator, expected } from './definition.ts'
import { code, compactJson, preview } from './describe.ts'

export const json = defineEvaluator({
  kind: 'json',
  description:
    'The output is or holds a JSON value (bare, in a code fence, or the first balanced value in prose).',
  options: z.strictObject({}),
  shorthand: z.literal(true, {
    error: expected('`true`; to require invalid JSON use `assert: [{ kind: json, not: true }]`'),
  }),
  fromShorthand: () => ({}),
  create: () => ({
    name: 'json',
    evaluate: ({ output }) => {
      const result = findJson(output)
      return result.ok
        ? { pass: true, reason: `output holds JSON: ${compactJson(result.value)}` }
        : { pass: false, reason: `${result.error}: ${preview(output)}` }
    },
  }),
})

export const parsed = defineEvaluator({
  kind: 'parsed',
  description: 'The structured output (or the JSON found in the output) includes these values (deep subset).',
  options: z.strictObject({ value: z.unknown() }),
  shorthand: z.unknown(),
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'parsed',
    evaluate: (transcript) => {
      const actual = structuredOutput(transcript)
      if (!actual.ok) {
        return { pass: false, reason: `no structured output, and ${actual.error}` }
      }
      const mismatch = findMismatch(value, actual.value)
      if (!mismatch) return { pass: true, reason: `structured output includes ${compactJson(value)}` }
      const where = mismatch.path
        ? `${code(mismatch.path)} is ${compactJson(mismatch.actual)}`
        : `got ${compactJson(mismatch.actual)}`
      return {
        pass: false,
        reason: `expected structured output to include ${compactJson(value)}; ${where}`,
        details: { expected: value, actual: actual.value, path: mismatch.path },
      }
    },
  }),
})

type Parsed = { ok: true; value: unknown } | { ok: false; error: string }

/** The target's structured output, else the JSON the engine's extractor finds in the output text. */
export function structuredOutput(transcript: Transcript): Parsed {
  return transcript.parsed === undefined
    ? findJson(transcript.output)
    : { ok: true, value: transcript.parsed }
}

function findJson(text: string): Parsed {
  const value = extractJson(text)
  return value === undefined
    ? { ok: false, error: 'the output holds no JSON value (bare, in a code fence, or in prose)' }
    : { ok: true, value }
}
