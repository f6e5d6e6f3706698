import { defineEvaluator, type Zod } from './definition.ts'
import { plural } from './describe.ts'

function count(z: Zod) {
  return { options: z.strictObject({ value: z.int().nonnegative() }), shorthand: z.int().nonnegative() }
}

export const minLength = defineEvaluator({
  kind: 'min_length',
  description: 'The output has at least this many characters.',
  schemas: count,
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
  schemas: count,
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
