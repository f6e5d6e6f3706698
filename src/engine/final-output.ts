import type { z } from 'zod'
import { toError } from '../errors.ts'
import { ModelRetry } from './model-retry.ts'
import type { RunContext } from '../types.ts'
import { parseStructuredOutput } from './structured.ts'

/** An output validator with its types erased, as the loop holds it. */
export type ErasedOutputValidator = (output: unknown, context: RunContext) => void | Promise<void>

/** What the loop does with a final reply: accept it, send feedback and ask again, or end the run. */
export type FinalCheck =
  { kind: 'accept'; parsed: unknown } | { kind: 'retry'; feedback: string } | { kind: 'fail'; error: string }

/** Validates a final reply: the output schema first, then each output validator in order. */
export async function checkFinalOutput(
  text: string,
  output: { schema: z.ZodType | undefined; plainText: boolean },
  validators: readonly ErasedOutputValidator[],
  context: RunContext,
): Promise<FinalCheck> {
  let parsed: unknown
  if (output.schema) {
    const checked = await parseStructuredOutput(text, output.schema, output.plainText)
    if (!checked.ok) return { kind: 'retry', feedback: checked.error }
    parsed = checked.value
  }
  for (const validate of validators) {
    try {
      await validate(output.schema ? parsed : text, context)
    } catch (thrown) {
      if (thrown instanceof ModelRetry) return { kind: 'retry', feedback: thrown.message }
      return { kind: 'fail', error: `An output validator failed: ${toError(thrown).message}` }
    }
  }
  return { kind: 'accept', parsed }
}
