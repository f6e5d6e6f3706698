import { z } from 'zod'
import { caseNote, found, needles, toList } from './contains.ts'
import { defineEvaluator } from './definition.ts'
import { codeList, preview } from './describe.ts'
import type { Evaluator } from './evaluator.ts'

export const icontains = defineEvaluator({
  kind: 'icontains',
  description: 'The output contains every one of these strings, ignoring case (promptfoo’s `icontains`).',
  options: z.strictObject({ value: needles }),
  shorthand: needles,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => everyNeedle('icontains', toList(value), false),
})

/**
 * The schemas of `contains_any` and `contains_all`: they match case, as promptfoo's `contains-any` and
 * `contains-all` do (its `icontains-any` / `icontains-all` ignore it); `case_sensitive: false` ignores case. The
 * `contains` of `expect:` ignores case by default, as it always has.
 */
const caseMatchingNeedles = {
  options: z.strictObject({
    value: needles,
    case_sensitive: z
      .boolean()
      .optional()
      .describe("match case exactly, as promptfoo's namesake; false ignores case @default true"),
  }),
  shorthand: needles,
}

export const containsAll = defineEvaluator({
  kind: 'contains_all',
  description:
    'The output contains every one of these strings, matching case (as promptfoo’s `contains-all`) unless `case_sensitive: false`.',
  ...caseMatchingNeedles,
  fromShorthand: (value) => ({ value }),
  create: ({ value, case_sensitive = true }) => everyNeedle('contains_all', toList(value), case_sensitive),
})

export const containsAny = defineEvaluator({
  kind: 'contains_any',
  description:
    'The output contains at least one of these strings, matching case (as promptfoo’s `contains-any`) unless `case_sensitive: false`.',
  ...caseMatchingNeedles,
  fromShorthand: (value) => ({ value }),
  create: ({ value, case_sensitive = true }) => {
    const wanted = toList(value)
    return {
      name: 'contains_any',
      evaluate: ({ output }) => {
        const present = found(output, wanted, case_sensitive)
        return present.length > 0
          ? { pass: true, reason: `output contains ${codeList(present)}` }
          : {
              pass: false,
              reason: `output contains none of ${codeList(wanted)} (${caseNote(case_sensitive)}): ${preview(output)}`,
            }
      },
    }
  },
})

function everyNeedle(name: string, wanted: string[], caseSensitive: boolean | undefined): Evaluator {
  return {
    name,
    evaluate: ({ output }) => {
      const present = new Set(found(output, wanted, caseSensitive))
      const missing = wanted.filter((needle) => !present.has(needle))
      return missing.length === 0
        ? { pass: true, reason: `output contains ${codeList(wanted)}` }
        : {
            pass: false,
            reason: `output lacks ${codeList(missing)} of ${codeList(wanted)} (${caseNote(caseSensitive)}): ${preview(output)}`,
          }
    },
  }
}
