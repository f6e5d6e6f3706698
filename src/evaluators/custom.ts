import { basename } from 'node:path'
import { z } from 'zod'
import type { Transcript } from '../types.ts'
import { callBounded } from './bounded-call.ts'
import { defineEvaluator } from './definition.ts'
import type { EvaluatorContext, Verdict } from './evaluator.ts'
import { code, compactJson } from './describe.ts'
import { importFunction, moduleRefPattern, parseModuleRef } from './module-ref.ts'

/** A user check: return a boolean, or a Verdict to explain itself. Throwing makes the case errored. */
export type CustomCheck = (
  transcript: Transcript,
  context: EvaluatorContext,
) => boolean | Verdict | Promise<boolean | Verdict>

const moduleRef = z.string().regex(moduleRefPattern, 'expected `./path/to/module.ts#exportName`')

export const custom = defineEvaluator({
  kind: 'custom',
  description:
    'A function `(transcript, context) => boolean | Verdict` exported from a JS or TS module: `./checks.ts#name`.',
  options: z.strictObject({ value: moduleRef }),
  shorthand: moduleRef,
  fromShorthand: (value) => ({ value }),
  create: ({ value }, { baseDir }) => {
    const ref = parseModuleRef(value, baseDir)
    const label = `${code(ref.exportName)} in ${basename(ref.module)}`
    let imported: ReturnType<typeof importFunction> | undefined
    return {
      name: 'custom',
      waitsForBatch: true,
      evaluate: async (transcript, context) => {
        // resolved once per evaluator, and cases with the same ref share one evaluator
        const check = await (imported ??= importFunction(ref))
        if (typeof check === 'string') throw new Error(check)
        const result: unknown = await callBounded(
          () => (check as CustomCheck)(transcript, context),
          context.deadline,
          label,
        )
        if (typeof result === 'boolean') {
          return { pass: result, reason: `${label} returned ${result}` }
        }
        if (isVerdict(result)) return result
        throw new Error(
          `${label} returned ${compactJson(result)}; expected a boolean or a { pass, reason } verdict`,
        )
      },
    }
  },
})

function isVerdict(value: unknown): value is Verdict {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Record<string, unknown>
  return (
    typeof candidate.pass === 'boolean' &&
    typeof candidate.reason === 'string' &&
    (candidate.score === undefined || typeof candidate.score === 'number')
  )
}
