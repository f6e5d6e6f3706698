import { defineEvaluator, expected, isNonEmptyString, type Zod } from './definition.ts'
import { codeList, preview } from './describe.ts'

function needleSchemas(z: Zod) {
  const needles = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
    error: expected('a string or a list of strings'),
  })
  return { options: z.strictObject({ value: needles }), shorthand: needles }
}

function toList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value
}

export const contains = defineEvaluator({
  kind: 'contains',
  description: 'The output contains every one of these strings, ignoring case.',
  schemas: needleSchemas,
  accepts: isNonEmptyString,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'contains',
    evaluate: ({ output }) => {
      const wanted = toList(value)
      const missing = wanted.filter((needle) => !output.toLowerCase().includes(needle.toLowerCase()))
      return missing.length === 0
        ? { pass: true, reason: `output contains ${codeList(wanted)}` }
        : {
            pass: false,
            reason: `output does not contain ${codeList(missing)} (ignoring case): ${preview(output)}`,
          }
    },
  }),
})

export const notContains = defineEvaluator({
  kind: 'not_contains',
  description: 'The output contains none of these strings, ignoring case.',
  schemas: needleSchemas,
  accepts: isNonEmptyString,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'not_contains',
    evaluate: ({ output }) => {
      const found = toList(value).filter((needle) => output.toLowerCase().includes(needle.toLowerCase()))
      return found.length === 0
        ? { pass: true, reason: `output contains none of ${codeList(toList(value))}` }
        : { pass: false, reason: `output contains ${codeList(found)} (ignoring case): ${preview(output)}` }
    },
  }),
})
