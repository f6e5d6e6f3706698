import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { ConfigError } from '../errors.ts'
import { defineEvaluator, expected } from './definition.ts'
import { compactJson, plural } from './describe.ts'
import { jsonValuesIn } from '../engine/structured.ts'
import type { Transcript } from '../types.ts'

let ajv: import('ajv').default | undefined

// ajv loads only when a case has a `json_schema` check; required in this form, which the Action's bundler inlines
export function validator(): import('ajv').default {
  if (ajv) return ajv
  const Ajv = (createRequire(import.meta.url)('ajv') as typeof import('ajv')).default
  const addFormats = (createRequire(import.meta.url)('ajv-formats') as typeof import('ajv-formats')).default
  ajv = new Ajv({ allErrors: true, strict: false })
  addFormats(ajv)
  return ajv
}

const schemaObject = z.record(z.string(), z.unknown(), { error: expected('a JSON Schema object') })

export const jsonSchema = defineEvaluator({
  kind: 'json_schema',
  description:
    'The structured output, else a JSON value in the output, is valid against this JSON Schema: inline, or `{ $ref: ./file.json }` relative to the case file. In prose, the first value the schema accepts counts ("See [1]: {…}" is checked on its object too).',
  options: z.strictObject({ schema: schemaObject }),
  shorthand: schemaObject,
  fromShorthand: (schema) => ({ schema }),
  create: ({ schema }, { baseDir }) => {
    const validate = compile(loadSchema(schema, baseDir))
    return {
      name: 'json_schema',
      evaluate: (transcript) => {
        const candidates = candidatesOf(transcript)
        if (candidates.length === 0) {
          return {
            pass: false,
            reason:
              'no structured output, and the output holds no JSON value (bare, in a code fence, or in prose)',
          }
        }
        for (const { value } of candidates) {
          if (validate(value)) return { pass: true, reason: 'output is valid against the JSON Schema' }
        }
        // none is valid: the errors of the largest, the likeliest to be the answer rather than a citation like [1]
        const largest = candidates.reduce((a, b) => (b.source.length > a.source.length ? b : a))
        validate(largest.value)
        const errors = (validate.errors ?? []).map(describeError)
        const which =
          candidates.length === 1
            ? 'output'
            : `none of the ${candidates.length} JSON values in the output; the largest`
        return {
          pass: false,
          reason: `${which} is not valid against the JSON Schema (${plural(errors.length, 'error')}): ${errors.slice(0, 3).join('; ')}`,
          details: { errors, actual: largest.value },
        }
      },
    }
  },
})

/** The target's structured output when it has one; else every JSON value in its output text. */
function candidatesOf(transcript: Transcript): { value: unknown; source: string }[] {
  if (transcript.parsed !== undefined) return [{ value: transcript.parsed, source: '' }]
  return [...jsonValuesIn(transcript.output)]
}

/** The inline schema, or the file a lone `$ref` (not a `#…` pointer) names, relative to the case file. */
export function loadSchema(schema: Record<string, unknown>, baseDir: string): Record<string, unknown> {
  const ref = schema.$ref
  if (Object.keys(schema).length !== 1 || typeof ref !== 'string' || ref.startsWith('#')) return schema
  const file = resolve(baseDir, ref)
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch (error) {
    throw new ConfigError(
      `json_schema: \`$ref: ${ref}\` (${file}) could not be read as JSON: ${(error as Error).message}`,
      { cause: error },
    )
  }
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  try {
    return validator().compile(schema)
  } catch (error) {
    throw new ConfigError(`json_schema: not a valid JSON Schema: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

/** `$.items[0].price: must be number`, the JSON path built from ajv's JSON Pointer. */
export function describeError(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) =>
      /^\d+$/.test(key)
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `[${JSON.stringify(key)}]`,
    )
    .join('')
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${compactJson((error.params as { additionalProperty: string }).additionalProperty)})`
      : error.keyword === 'enum'
        ? ` (${compactJson((error.params as { allowedValues: unknown }).allowedValues)})`
        : ''
  return `$${path}: ${error.message ?? error.keyword}${extra}`
}
