import { z } from 'zod'
import { didYouMean } from '../util/did-you-mean.ts'

/** What validation needs of a tool: its name (for messages) and its parameters. */
interface Checked {
  name: string
  parameters: z.ZodObject
}

export type ArgumentsCheck = { ok: true; args: unknown } | { ok: false; args: unknown; error: string }

/**
 * Parses a model's raw tool-call arguments and validates them against the tool's schema. Numbers and booleans
 * sent as strings are coerced when the conversion is exact; every other problem is listed with its path.
 */
export function checkToolArguments(tool: Checked, rawArguments: string): ArgumentsCheck {
  let value: unknown
  try {
    value = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments)
  } catch (error) {
    return {
      ok: false,
      args: rawArguments,
      error: `Invalid arguments for tool \`${tool.name}\`: not valid JSON (${(error as Error).message}). Send the arguments as one JSON object.`,
    }
  }
  const checked = checkToolValue(tool, value)
  if (checked.ok) return checked
  return {
    ok: false,
    args: checked.args,
    error: `Invalid arguments for tool \`${tool.name}\`:\n${checked.issues.join('\n')}\nFix the arguments and call the tool again.`,
  }
}

/**
 * Validates arguments given as a value (a direct `tool.execute(args)`, or parsed JSON): the same checks and
 * coercions as for a model's call, with one line per issue.
 */
export function checkToolValue(
  tool: Checked,
  given: unknown,
): { ok: true; args: unknown } | { ok: false; args: unknown; issues: string[] } {
  let value = given
  const strict = strictSchema(tool.parameters)
  let result = strict.safeParse(value)
  if (!result.success) {
    const coerced = coerceScalars(value, result.error.issues)
    if (coerced.changed) {
      value = coerced.value
      result = strict.safeParse(value)
    }
  }
  // `.strict()` only covers the top level: nested objects would drop unknown keys silently
  const nested = nestedUnknownKeys(tool.parameters, value, [])
  if (result.success && nested.length === 0) return { ok: true, args: result.data }
  const issues = [...(result.success ? [] : result.error.issues), ...nested]
  return { ok: false, args: value, issues: issues.map((issue) => `- ${describeIssue(issue, tool)}`) }
}

// a fresh `.strict()` schema per call would be compiled again on every parse
const strictSchemas = new WeakMap<z.ZodObject, z.ZodObject>()

function strictSchema(schema: z.ZodObject): z.ZodObject {
  let strict = strictSchemas.get(schema)
  if (!strict) {
    strict = schema.strict()
    strictSchemas.set(schema, strict)
  }
  return strict
}

function describeIssue(issue: z.core.$ZodIssue, tool: Checked): string {
  const where = issue.path.length > 0 ? issue.path.join('.') : '(arguments)'
  if (issue.code === 'unrecognized_keys') {
    const known = Object.keys(shapeAt(tool.parameters, issue.path) ?? {})
    return issue.keys
      .map((key) => {
        const suggestion = didYouMean(key, known)
        const hint = suggestion
          ? ` (did you mean \`${suggestion}\`?)`
          : ` (known keys: ${known.join(', ') || 'none'})`
        return `${where === '(arguments)' ? '' : `${where}: `}unknown key \`${key}\`${hint}`
      })
      .join('\n- ')
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`
}

function nestedUnknownKeys(
  schema: z.ZodObject,
  value: unknown,
  path: PropertyKey[],
): z.core.$ZodIssueUnrecognizedKeys[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
  const record = value as Record<string, unknown>
  const shape = schema.shape as Record<string, z.ZodType>
  const issues: z.core.$ZodIssueUnrecognizedKeys[] = []
  if (path.length > 0 && schema._zod.def.catchall === undefined) {
    const keys = Object.keys(record).filter((key) => !(key in shape))
    if (keys.length > 0) issues.push({ code: 'unrecognized_keys', keys, path, message: 'unknown keys' })
  }
  for (const [key, child] of Object.entries(shape)) {
    const inner = unwrap(child)
    const item = record[key]
    if (inner instanceof z.ZodObject) issues.push(...nestedUnknownKeys(inner, item, [...path, key]))
    else if (inner instanceof z.ZodArray && Array.isArray(item)) {
      const element = unwrap(inner.element as z.ZodType)
      if (element instanceof z.ZodObject) {
        item.forEach((entry, index) => {
          issues.push(...nestedUnknownKeys(element, entry, [...path, key, index]))
        })
      }
    }
  }
  return issues
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodDefault
  ) {
    current = current.unwrap() as z.ZodType
  }
  return current
}

function shapeAt(schema: z.ZodObject, path: readonly PropertyKey[]): Record<string, unknown> | undefined {
  let current: z.ZodType | undefined = schema
  for (const key of path) {
    current = current === undefined ? undefined : unwrap(current)
    if (current instanceof z.ZodArray) current = current.element as z.ZodType
    else if (current instanceof z.ZodObject)
      current = (current.shape as Record<string, z.ZodType>)[String(key)]
    else return undefined
  }
  current = current === undefined ? undefined : unwrap(current)
  return current instanceof z.ZodObject ? current.shape : undefined
}

function coerceScalars(
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
): { value: unknown; changed: boolean } {
  const copy = structuredClone(value)
  let changed = false
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || issue.path.length === 0) continue
    const parent = issue.path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown>)[key], copy)
    const key = issue.path[issue.path.length - 1] as PropertyKey
    if (typeof parent !== 'object' || parent === null) continue
    const record = parent as Record<PropertyKey, unknown>
    const raw = record[key]
    if (typeof raw !== 'string') continue
    const converted = convert(raw.trim(), issue.expected)
    if (converted !== undefined) {
      record[key] = converted
      changed = true
    }
  }
  return { value: copy, changed }
}

function convert(text: string, expected: string): number | boolean | undefined {
  if ((expected === 'number' || expected === 'int') && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) {
    return Number(text)
  }
  if (expected === 'boolean') return BOOLEAN_WORDS.get(text.toLowerCase())
  return undefined
}

// the words a model (or a YAML-minded user) writes for a boolean, as selectools accepts them
const BOOLEAN_WORDS = new Map([
  ...['true', 'yes', 'on', '1'].map((word) => [word, true] as const),
  ...['false', 'no', 'off', '0'].map((word) => [word, false] as const),
])
