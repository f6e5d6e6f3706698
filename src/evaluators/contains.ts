import { z } from 'zod'
import { defineEvaluator, expected } from './definition.ts'
import { codeList, preview } from './describe.ts'

export const needles = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error: expected('a string or a list of strings'),
})

/** The schemas of a check for strings in the output: the needles, and `case_sensitive` in the long form. */
export const needleSchemas = {
  options: z.strictObject({
    value: needles,
    case_sensitive: z.boolean().optional().describe('match case exactly @default false'),
  }),
  shorthand: needles,
}

/** The needles of `wanted` that `output` holds, ignoring case unless `caseSensitive`. */
export function found(output: string, wanted: string[], caseSensitive: boolean | undefined): string[] {
  if (caseSensitive === true) return wanted.filter((needle) => output.includes(needle))
  const lower = output.toLowerCase()
  return wanted.filter((needle) => lower.includes(needle.toLowerCase()))
}

export function caseNote(caseSensitive: boolean | undefined): string {
  return caseSensitive === true ? 'matching case' : 'ignoring case'
}

export function toList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value
}

export const contains = defineEvaluator({
  kind: 'contains',
  description: 'The output contains every one of these strings, ignoring case unless `case_sensitive: true`.',
  ...needleSchemas,
  fromShorthand: (value) => ({ value }),
  create: ({ value, case_sensitive }) => ({
    name: 'contains',
    evaluate: ({ output }) => {
      const wanted = toList(value)
      const present = new Set(found(output, wanted, case_sensitive))
      const missing = wanted.filter((needle) => !present.has(needle))
      return missing.length === 0
        ? { pass: true, reason: `output contains ${codeList(wanted)}` }
        : {
            pass: false,
            reason: `output does not contain ${codeList(missing)} (${caseNote(case_sensitive)}): ${preview(output)}`,
          }
    },
  }),
})

export const notContains = defineEvaluator({
  kind: 'not_contains',
  description: 'The output contains none of these strings, ignoring case unless `case_sensitive: true`.',
  ...needleSchemas,
  fromShorthand: (value) => ({ value }),
  create: ({ value, case_sensitive }) => ({
    name: 'not_contains',
    evaluate: ({ output }) => {
      const present = found(output, toList(value), case_sensitive)
      return present.length === 0
        ? { pass: true, reason: `output contains none of ${codeList(toList(value))}` }
        : {
            pass: false,
            reason: `output contains ${codeList(present)} (${caseNote(case_sensitive)}): ${preview(output)}`,
          }
    },
  }),
})
