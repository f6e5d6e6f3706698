import type { z } from 'zod'
import { toError } from '../errors.ts'
import { ModelRetry } from './model-retry.ts'
import type { RunContext } from '../types.ts'
import { extractJson, issueLine, parseStructuredOutput } from './structured.ts'

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
  return runValidators(output.schema ? parsed : text, parsed, validators, context)
}

/**
 * Validates a terminal tool's result as the final output: the value itself against the output schema (a string
 * result is searched for JSON as a reply would be), then the output validators.
 */
export async function checkTerminalResult(
  tool: string,
  result: unknown,
  output: { schema: z.ZodType | undefined; plainText: boolean },
  validators: readonly ErasedOutputValidator[],
  context: RunContext,
): Promise<FinalCheck> {
  if (!output.schema) return runValidators(result, undefined, validators, context)
  const value = typeof result === 'string' && !output.plainText ? (extractJson(result) ?? result) : result
  const checked = await output.schema.safeParseAsync(value)
  if (!checked.success) {
    const lines = checked.error.issues.map((issue) => `- ${issueLine(issue)}`)
    const feedback = `The result of \`${tool}\` did not match the expected output:\n${lines.join('\n')}\nCall it again with corrected arguments.`
    return { kind: 'retry', feedback }
  }
  return runValidators(checked.data, checked.data, validators, context)
}

async function runValidators(
  seen: unknown,
  parsed: unknown,
  validators: readonly ErasedOutputValidator[],
  context: RunContext,
): Promise<FinalCheck> {
  for (const validate of validators) {
    try {
      await validate(seen, context)
    } catch (thrown) {
      if (thrown instanceof ModelRetry) return { kind: 'retry', feedback: thrown.message }
      return { kind: 'fail', error: `An output validator failed: ${toError(thrown).message}` }
    }
  }
  return { kind: 'accept', parsed }
}
