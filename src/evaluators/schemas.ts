import { z } from 'zod'
import { ConfigError } from '../errors.ts'
import type { EvaluatorDefinition } from './definition.ts'

/** Validates an `expect:` value and turns it into the check's options; a ConfigError naming `path` if invalid. */
export function parseShorthand(definition: EvaluatorDefinition, value: unknown, path: string): Options {
  return parseOrThrow(
    definition.options,
    definition.fromShorthand(parseOrThrow(definition.shorthand, value, path)),
    path,
  )
}

/** Validates an `assert:` item's options (without `kind`, `weight`, `not`); a ConfigError naming `path` if invalid. */
export function parseOptions(definition: EvaluatorDefinition, options: unknown, path: string): Options {
  return parseOrThrow(definition.options, options, path)
}

type Options = z.output<EvaluatorDefinition['options']>

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, path: string): z.output<T> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new ConfigError(`Invalid options at ${path}:\n${z.prettifyError(result.error)}`)
}
