import { ConfigError } from '../errors.ts'
import type { ToolContext } from './tool-context.ts'
import { checkToolValue } from './validate.ts'
import type { z } from 'zod'

type RawExecute = (args: unknown, context: ToolContext) => unknown

/** the function each validating `execute` wraps, for the engine (which validates the model's calls itself) */
const rawOf = new WeakMap<object, RawExecute>()

/**
 * What `tool()` puts in place of `execute`: validates the arguments as a model's call would be (defaults filled,
 * safe coercions), fills the context a direct call leaves out, and drains an async-generator tool into its result.
 */
export function validatingExecute(config: {
  name: string
  parameters: z.ZodObject
  execute: RawExecute
}): (args: unknown, context?: Partial<ToolContext>) => Promise<unknown> {
  const validating = async (args: unknown, context: Partial<ToolContext> = {}): Promise<unknown> => {
    const checked = checkToolValue(config, args)
    if (!checked.ok) {
      throw new ConfigError(`Invalid arguments for tool \`${config.name}\`:\n${checked.issues.join('\n')}`)
    }
    const full: ToolContext = {
      deps: context.deps,
      signal: context.signal ?? new AbortController().signal,
      runId: context.runId ?? 'direct',
      callId: context.callId ?? 'direct',
      emit: context.emit ?? (() => undefined),
    }
    const returned = config.execute(checked.args, full)
    if (!isAsyncGenerator(returned)) return returned
    while (true) {
      const step = await returned.next()
      if (step.done) return step.value
      full.emit(step.value)
    }
  }
  rawOf.set(validating, config.execute)
  return validating
}

/** The function to call with arguments the engine has validated: the tool's own, without a second validation. */
export function rawExecute(tool: { execute: unknown }): RawExecute {
  return rawOf.get(tool.execute as object) ?? (tool.execute as RawExecute)
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value && 'next' in value
}
