import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { preview } from './describe.ts'

export const equals = defineEvaluator({
  kind: 'equals',
  description:
    'The output equals this string; the long form may `trim` whitespace first and ignore case with `case_sensitive: false`.',
  options: z.strictObject({
    value: z.string(),
    trim: z
      .boolean()
      .optional()
      .describe('compare with leading and trailing whitespace removed @default false'),
    case_sensitive: z.boolean().optional().describe('match case exactly @default true'),
  }),
  shorthand: z.string(),
  fromShorthand: (value) => ({ value }),
  create: ({ value, trim = false, case_sensitive = true }) => {
    const normalize = (text: string) => {
      const trimmed = trim ? text.trim() : text
      return case_sensitive ? trimmed : trimmed.toLowerCase()
    }
    const wanted = normalize(value)
    const notes = [...(trim ? ['trimmed'] : []), ...(case_sensitive ? [] : ['ignoring case'])]
    const note = notes.length === 0 ? '' : ` (${notes.join(', ')})`
    return {
      name: 'equals',
      evaluate: ({ output }) => {
        if (normalize(output) === wanted)
          return { pass: true, reason: `output equals ${preview(value)}${note}` }
        const [expected, actual] = shown(value, output)
        return { pass: false, reason: `expected output ${expected}${note}, got ${actual}` }
      },
    }
  },
})

/** previews, or the exact JSON strings when the previews look the same (they differ in whitespace) */
function shown(wanted: string, actual: string): [string, string] {
  const pair: [string, string] = [preview(wanted), preview(actual)]
  return pair[0] === pair[1] ? [JSON.stringify(wanted), JSON.stringify(actual)] : pair
}
