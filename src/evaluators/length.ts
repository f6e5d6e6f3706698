import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { plural } from './describe.ts'

const count = { options: z.strictObject({ value: z.int().nonnegative() }), shorthand: z.int().nonnegative() }

export const minLength = defineEvaluator({
  kind: 'min_length',
  description: 'The output has at least this many characters.',
  ...count,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'min_length',
    evaluate: ({ output }) =>
      output.length >= value
        ? { pass: true, reason: `output has ${plural(output.length, 'character')}, at least ${value}` }
        : {
            pass: false,
            reason: `output has ${plural(output.length, 'character')}, expected at least ${value}`,
          },
  }),
})

export const maxLength = defineEvaluator({
  kind: 'max_length',
  description: 'The output has at most this many characters.',
  ...count,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'max_length',
    evaluate: ({ output }) =>
      output.length <= value
        ? { pass: true, reason: `output has ${plural(output.length, 'character')}, at most ${value}` }
        : {
            pass: false,
            reason: `output has ${plural(output.length, 'character')}, expected at most ${value}`,
          },
  }),
})
