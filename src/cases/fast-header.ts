import { moduleRefPattern } from '../evaluators/module-ref.ts'
import { isOptionalPositiveInt, isPlainObject, isTagList, validExpect } from './fast-case.ts'
import type { CaseFileHeader } from './schema.ts'

const headerKeys = new Set([
  '$schema',
  'suite',
  'description',
  'target',
  'model',
  'defaults',
  'trials',
  'timeout_ms',
  'cases',
])
const defaultsKeys = new Set(['expect', 'tags', 'timeout_ms', 'trials'])

/**
 * The output `caseFileHeaderSchema` gives for the common header (an `agent`, `function` or command-line target;
 * no `judge:`, `gate:` or default `assert:`), built without zod; `undefined` when the file is anything else or
 * invalid, and the caller then runs the schema, which also words the errors.
 */
export function fastHeader(data: unknown): CaseFileHeader | undefined {
  if (!isPlainObject(data)) return undefined
  for (const key in data) if (!headerKeys.has(key)) return undefined
  const { $schema, suite, description, target, model, defaults, trials, timeout_ms, cases } = data
  if ($schema !== undefined && typeof $schema !== 'string') return undefined
  if (!isNonEmptyString(suite) || (description !== undefined && typeof description !== 'string'))
    return undefined
  if (model !== undefined && !isNonEmptyString(model)) return undefined
  if (!isOptionalPositiveInt(trials) || !isOptionalPositiveInt(timeout_ms)) return undefined
  if (!Array.isArray(cases) || cases.length === 0) return undefined
  const outTarget = fastTarget(target)
  const outDefaults = defaults === undefined ? undefined : fastDefaults(defaults)
  if (outTarget === undefined || (defaults !== undefined && outDefaults === undefined)) return undefined
  // in the schema's key order, as its output
  const header: Record<string, unknown> = {}
  if ($schema !== undefined) header.$schema = $schema
  header.suite = suite
  if (description !== undefined) header.description = description
  header.target = outTarget
  if (model !== undefined) header.model = model
  if (outDefaults !== undefined) header.defaults = outDefaults
  if (trials !== undefined) header.trials = trials
  if (timeout_ms !== undefined) header.timeout_ms = timeout_ms
  return header as CaseFileHeader
}

function fastTarget(target: unknown): CaseFileHeader['target'] | undefined {
  if (!isPlainObject(target)) return undefined
  const keys = Object.keys(target)
  if (keys.length !== 1) return undefined
  const { agent, function: fn, command } = target
  if (isNonEmptyString(agent)) return { agent }
  if (typeof fn === 'string' && moduleRefPattern.test(fn)) return { function: fn }
  if (isNonEmptyString(command)) return { command }
  return undefined
}

function fastDefaults(defaults: unknown): NonNullable<CaseFileHeader['defaults']> | undefined {
  if (!isPlainObject(defaults)) return undefined
  for (const key in defaults) if (!defaultsKeys.has(key)) return undefined
  const { expect, tags, timeout_ms, trials } = defaults
  if (tags !== undefined && !isTagList(tags)) return undefined
  if (!isOptionalPositiveInt(trials) || !isOptionalPositiveInt(timeout_ms)) return undefined
  const outExpect = expect === undefined ? undefined : validExpect(expect)
  if (expect !== undefined && outExpect === undefined) return undefined
  const result: NonNullable<CaseFileHeader['defaults']> = {}
  if (outExpect !== undefined) result.expect = outExpect
  if (tags !== undefined) result.tags = tags
  if (timeout_ms !== undefined) result.timeout_ms = timeout_ms as number
  if (trials !== undefined) result.trials = trials as number
  return result
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0
}
