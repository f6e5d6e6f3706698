import type { Transcript } from '../types.ts'
import { findMismatch } from './deep-match.ts'
import { defineEvaluator, expected } from './definition.ts'
import { code, compactJson, preview } from './describe.ts'

export const json = defineEvaluator({
  kind: 'json',
  description: 'The output is valid JSON.',
  schemas: (z) => ({
    options: z.strictObject({}),
    shorthand: z.literal(true, {
      error: expected('`true`; to require invalid JSON use `assert: [{ kind: json, not: true }]`'),
    }),
  }),
  accepts: (value) => value === true,
  fromShorthand: () => ({}),
  create: () => ({
    name: 'json',
    evaluate: ({ output }) => {
      const result = parseJson(output)
      return result.ok
        ? { pass: true, reason: 'output is valid JSON' }
        : { pass: false, reason: `output is not valid JSON (${result.error}): ${preview(output)}` }
    },
  }),
})

export const parsed = defineEvaluator({
  kind: 'parsed',
  description: 'The structured output (or the output parsed as JSON) includes these values (deep subset).',
  schemas: (z) => ({ options: z.strictObject({ value: z.unknown() }), shorthand: z.unknown() }),
  accepts: (value) => value !== undefined,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'parsed',
    evaluate: (transcript) => {
      const actual = structuredOutput(transcript)
      if (!actual.ok) {
        return { pass: false, reason: `no structured output, and the output is not JSON (${actual.error})` }
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

function structuredOutput(transcript: Transcript): Parsed {
  return transcript.parsed === undefined
    ? parseJson(transcript.output)
    : { ok: true, value: transcript.parsed }
}

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}
