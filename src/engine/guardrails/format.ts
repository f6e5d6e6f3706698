import type { z } from 'zod'
import { ConfigError } from '../../errors.ts'
import type { Guardrail } from './guardrail.ts'

export interface FormatGuardrailOptions {
  /** the text must be a JSON value, matching `schema` when given */
  json?: boolean
  schema?: z.ZodType
  /** the text must match this regular expression */
  pattern?: RegExp
  /** @default 'block' */
  action?: 'block' | 'warn'
}

/** Checks a text's shape: JSON (against a zod schema) and/or a regular expression. */
export function formatGuardrail(options: FormatGuardrailOptions): Guardrail {
  const { schema, pattern } = options
  const json = options.json === true || schema !== undefined
  if (!json && pattern === undefined)
    throw new ConfigError('`formatGuardrail` needs `json: true`, a `schema` or a `pattern`.')
  const action = options.action ?? 'block'
  return {
    name: 'format',
    check(text) {
      if (pattern !== undefined && !pattern.test(text))
        return { action, reason: `does not match ${String(pattern)}` }
      if (!json) return { action: 'pass' }
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch {
        return { action, reason: 'is not JSON' }
      }
      const parsed = schema?.safeParse(value)
      if (parsed && !parsed.success) {
        const issue = parsed.error.issues[0]
        const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
        return { action, reason: `JSON does not match the schema (${where}${issue?.message ?? 'invalid'})` }
      }
      return { action: 'pass' }
    },
  }
}
