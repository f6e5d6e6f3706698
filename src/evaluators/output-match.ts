import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { preview } from './describe.ts'

export const output = defineEvaluator({
  kind: 'output',
  description: 'The output equals this string exactly.',
  options: z.strictObject({ value: z.string() }),
  shorthand: z.string(),
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'output',
    evaluate: ({ output: actual }) =>
      actual === value
        ? { pass: true, reason: `output equals ${preview(value)}` }
        : { pass: false, reason: `expected output ${preview(value)}, got ${preview(actual)}` },
  }),
})

const pattern = z.string().superRefine((source, context) => {
  const error = regexError(source)
  if (error !== undefined) context.addIssue({ code: 'custom', message: error })
})
const flags = z.string().regex(/^[dgimsuvy]*$/, 'expected regular expression flags among `dgimsuvy`')

export const outputRegex = defineEvaluator({
  kind: 'output_regex',
  description: 'The output matches this regular expression (JavaScript syntax).',
  options: z.strictObject({ value: pattern, flags: flags.optional() }),
  shorthand: pattern,
  fromShorthand: (value) => ({ value }),
  create: ({ value, flags }) => {
    const regex = new RegExp(value, flags)
    const shown = String(regex)
    return {
      name: 'output_regex',
      evaluate: ({ output: actual }) => {
        // with `g` or `y` a RegExp remembers where its last match ended; each output is matched from its start
        regex.lastIndex = 0
        return regex.test(actual)
          ? { pass: true, reason: `output matches ${shown}` }
          : { pass: false, reason: `output does not match ${shown}: ${preview(actual)}` }
      },
    }
  },
})

const nonEmptyString = { options: z.strictObject({ value: z.string().min(1) }), shorthand: z.string().min(1) }

export const startsWith = defineEvaluator({
  kind: 'starts_with',
  description: 'The output starts with this string, leading whitespace removed from both.',
  ...nonEmptyString,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'starts_with',
    evaluate: ({ output: actual }) =>
      actual.trimStart().startsWith(value.trimStart())
        ? { pass: true, reason: `output starts with ${preview(value)}` }
        : {
            pass: false,
            reason: `expected output to start with ${preview(value)}, got ${preview(actual, 40)}`,
          },
  }),
})

export const endsWith = defineEvaluator({
  kind: 'ends_with',
  description: 'The output ends with this string, trailing whitespace removed from both.',
  ...nonEmptyString,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'ends_with',
    evaluate: ({ output: actual }) => {
      const trimmed = actual.trimEnd()
      return trimmed.endsWith(value.trimEnd())
        ? { pass: true, reason: `output ends with ${preview(value)}` }
        : {
            pass: false,
            reason: `expected output to end with ${preview(value)}, got ${preview(trimmed.length > 40 ? `…${trimmed.slice(-39)}` : trimmed)}`,
          }
    },
  }),
})

function regexError(source: string): string | undefined {
  try {
    new RegExp(source)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
