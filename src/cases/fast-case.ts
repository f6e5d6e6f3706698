import { accepts, evaluatorDefinitions } from '../evaluators/registry.ts'
import { emptyList, emptyRecord } from './build.ts'
import type { CaseEntry, Expectations } from './schema.ts'

const caseKeys = new Set([
  'id',
  'description',
  'input',
  'vars',
  'tags',
  'weight',
  'skip',
  'only',
  'trials',
  'timeout_ms',
  'expect',
])
const kindIndex = new Map(evaluatorDefinitions.map((definition, index) => [definition.kind, index]))
/** each kind's last value: thousands of cases usually repeat a few (one `custom:` ref), which then share a copy */
const lastValues = new Map<string, unknown>()

/**
 * The output `caseSchema` gives for the common case shape (string input, `expect:` values the checks' `accepts`
 * vouches for, no `assert:` or `judge:`), built without zod; `undefined` when the entry is anything else or
 * invalid, and the caller then runs the full schema, which also words the errors. It only accepts what the schema
 * accepts, and returns what it returns: defaults applied, `expect` keys in evaluator order. Unlike the schema, it
 * reuses the entry's own objects, which the caller owns.
 */
export function fastCase(entry: unknown): CaseEntry | undefined {
  if (!isPlainObject(entry)) return undefined
  for (const key in entry) if (!caseKeys.has(key)) return undefined
  const { id, description, input, vars, tags, weight, skip, only, trials, timeout_ms, expect } = entry
  if (typeof id !== 'string' || id.length === 0 || typeof input !== 'string') return undefined
  if (description !== undefined && typeof description !== 'string') return undefined
  if (vars !== undefined && (!isPlainObject(vars) || Object.hasOwn(vars, '__proto__'))) return undefined
  if (tags !== undefined && !isTagList(tags)) return undefined
  if (weight !== undefined && !(typeof weight === 'number' && Number.isFinite(weight) && weight >= 0))
    return undefined
  if (skip !== undefined && typeof skip !== 'boolean' && !(typeof skip === 'string' && skip.length > 0))
    return undefined
  if (only !== undefined && typeof only !== 'boolean') return undefined
  if (!isOptionalPositiveInt(trials) || !isOptionalPositiveInt(timeout_ms)) return undefined
  let outExpect: Expectations | undefined
  if (expect !== undefined) {
    outExpect = validExpect(expect)
    if (outExpect === undefined) return undefined
  }
  const result: Record<string, unknown> = { id }
  if (description !== undefined) result.description = description
  result.input = input
  result.vars = vars ?? emptyRecord
  result.tags = tags ?? emptyList
  result.weight = weight ?? 1
  result.skip = skip ?? false
  result.only = only ?? false
  if (trials !== undefined) result.trials = trials
  if (timeout_ms !== undefined) result.timeout_ms = timeout_ms
  if (outExpect !== undefined) result.expect = outExpect
  return result as unknown as CaseEntry
}

/** `expect:` of a case or of the defaults when every value passes its check's `accepts`; the object itself when its keys are in evaluator order */
export function validExpect(expect: unknown): Expectations | undefined {
  if (!isPlainObject(expect)) return undefined
  let last = -1
  let ordered = true
  for (const kind in expect) {
    const value = expect[kind]
    const position = kindIndex.get(kind)
    if (position === undefined || typeof value === 'object' || typeof value === 'function') return undefined
    if (value === undefined || !accepts(kind, value)) return undefined
    const previous = lastValues.get(kind)
    if (previous === value) expect[kind] = previous
    else lastValues.set(kind, value)
    if (position < last) ordered = false
    last = position
  }
  if (ordered) return expect
  // the schema's output lists the kinds in evaluator order
  const kinds = Object.keys(expect).sort((a, b) => (kindIndex.get(a) ?? 0) - (kindIndex.get(b) ?? 0))
  const result: Expectations = {}
  for (const kind of kinds) result[kind] = expect[kind]
  return result
}

export function isTagList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false
  for (const tag of value as unknown[]) if (typeof tag !== 'string' || tag.length === 0) return false
  return true
}

export function isOptionalPositiveInt(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}
