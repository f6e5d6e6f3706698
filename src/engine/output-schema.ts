import { z } from 'zod'
import { ConfigError, toError } from '../errors.ts'

/** An agent's `output` made ready: the schema replies are validated against, and the JSON Schema the model sees. */
export interface ResolvedOutput {
  schema: z.ZodType | undefined
  /** the output schema takes a string: the reply text is validated as it is, not searched for JSON */
  plainText: boolean
  jsonSchema: Record<string, unknown> | undefined
}

/**
 * Takes a zod schema as it is, or a JSON Schema object (sent to the model as given, validated through zod's
 * reading of it). Throws a ConfigError naming the agent for anything else.
 */
export function resolveOutput(agent: string, output: unknown): ResolvedOutput {
  if (output === undefined) return { schema: undefined, plainText: false, jsonSchema: undefined }
  if (isZodSchema(output)) {
    const plainText = jsonSchemaOf(output, 'input').type === 'string'
    return { schema: output, plainText, jsonSchema: plainText ? undefined : jsonSchemaOf(output, 'output') }
  }
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    throw new ConfigError(
      `Agent \`${agent}\`: \`output\` must be a zod schema (e.g. z.object({ … })) or a JSON Schema object, got ${describe(output)}.`,
    )
  }
  let schema: z.ZodType
  try {
    schema = z.fromJSONSchema(output as z.core.JSONSchema.JSONSchema)
  } catch (error) {
    throw new ConfigError(
      `Agent \`${agent}\`: \`output\` is not a JSON Schema zod can read: ${toError(error).message}.`,
      { cause: error },
    )
  }
  const { $schema: _, ...jsonSchema } = output as Record<string, unknown>
  const plainText = jsonSchema.type === 'string'
  return { schema, plainText, jsonSchema: plainText ? undefined : jsonSchema }
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>
  delete json.$schema
  return json
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}
