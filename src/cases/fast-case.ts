import { evaluatorDefinitions } from '../evaluators/index.ts'
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
const shorthands = new Map(evaluatorDefinitions.map((definition) => [definition.kind, definition.shorthand]))
const kindIndex = new Map(evaluatorDefinitions.map((definition, index) => [definition.kind, index]))
/** shorthand verdicts for primitive values: thousands of cases usually repeat a few, e.g. one `custom:` ref */
const primitiveVerdicts = new Map<string, Map<unknown, boolean>>()

/**
 * The output `caseSchema` gives for the common case shape (string input, `expect:` shorthands, no `assert:` or
 * `judge:`), built without zod's per-field machinery; `undefined` when the entry is anything else or invalid, and
 * the caller then runs the full schema, which also words the errors. It only accepts what the schema accepts, and
 * returns what it returns: defaults applied, `expect` keys in evaluator order.
 */
export function fastCase(entry: unknown): CaseEntry | undefined {
  if (!isPlainObject(entry)) return undefined
  for (const key in entry) if (!caseKeys.has(key)) return undefined
  const { id, description, input, vars, tags, weight, skip, only, trials, timeout_ms, expect } = entry
  if (typeof id !== 'string' || id.length === 0 || typeof input !== 'string') return undefined
  if (description !== undefined && typeof description !== 'string') return undefined
  const outVars = vars === undefined ? {} : copyRecord(vars)
  if (outVars === undefined) return undefined
  let outTags: string[] = []
  if (tags !== undefined) {
    if (!Array.isArray(tags)) return undefined
    for (const tag of tags as unknown[]) if (typeof tag !== 'string' || tag.length === 0) return undefined
    outTags = [...(tags as string[])]
  }
  if (weight !== undefined && !(typeof weight === 'number' && Number.isFinite(weight) && weight >= 0))
    return undefined
  if (skip !== undefined && typeof skip !== 'boolean' && !(typeof skip === 'string' && skip.length > 0))
    return undefined
  if (only !== undefined && typeof only !== 'boolean') return undefined
  if (!isPositiveInt(trials) || !isPositiveInt(timeout_ms)) return undefined
  let outExpect: Expectations | undefined
  if (expect !== undefined) {
    outExpect = validExpect(expect)
    if (outExpect === undefined) return undefined
  }
  const result: Record<string, unknown> = { id }
  if (description !== undefined) result.description = description
  result.input = input
  result.vars = outVars
  result.tags = outTags
  result.weight = weight ?? 1
  result.skip = skip ?? false
  result.only = only ?? false
  if (trials !== undefined) result.trials = trials
  if (timeout_ms !== undefined) result.timeout_ms = timeout_ms
  if (outExpect !== undefined) result.expect = outExpect
  return result as unknown as CaseEntry
}

function validExpect(expect: unknown): Expectations | undefined {
  if (!isPlainObject(expect)) return undefined
  const keys = Object.keys(expect)
  let last = -1
  let ordered = true
  for (const kind of keys) {
    const value = expect[kind]
    const position = kindIndex.get(kind)
    if (
      position === undefined ||
      value === undefined ||
      typeof value === 'object' ||
      typeof value === 'function'
    )
      return undefined
    if (!primitiveOk(kind, value)) return undefined
    if (position < last) ordered = false
    last = position
  }
  // the schema's output lists the kinds in evaluator order
  if (!ordered) keys.sort((a, b) => (kindIndex.get(a) ?? 0) - (kindIndex.get(b) ?? 0))
  const result: Expectations = {}
  for (const kind of keys) result[kind] = expect[kind]
  return result
}

/** whether the kind's shorthand accepts the primitive value and returns it unchanged */
function primitiveOk(kind: string, value: unknown): boolean {
  let verdicts = primitiveVerdicts.get(kind)
  if (!verdicts) primitiveVerdicts.set(kind, (verdicts = new Map<unknown, boolean>()))
  let ok = verdicts.get(value)
  if (ok === undefined) {
    const parsed = shorthands.get(kind)?.safeParse(value)
    ok = parsed?.success === true && Object.is(parsed.data, value)
    if (verdicts.size < 10_000) verdicts.set(value, ok)
  }
  return ok
}

function copyRecord(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || Object.hasOwn(value, '__proto__')) return undefined
  return { ...value }
}

function isPositiveInt(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}
