import type { z } from 'zod'
import { didYouMean } from '../util/did-you-mean.ts'
import { renamedKeys } from '../util/renamed-keys.ts'

/** A validation problem before it is located in the file. */
export interface PathIssue {
  path: PropertyKey[]
  message: string
  /** point at the key rather than its value (unknown keys) */
  atKey?: boolean
}

/** Case-file wording for zod issues: short, with the received value and a did-you-mean. */
export const caseFileErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && issue.code !== 'unrecognized_keys') return 'missing (required)'
  switch (issue.code) {
    case 'unrecognized_keys': {
      // an object schema's keys, read from its shape: `instanceof z.ZodObject` would load zod with this module
      const shape = (issue.inst as { shape?: Record<string, unknown> } | undefined)?.shape
      const known = shape ? Object.keys(shape) : []
      const renamed = issue.inst ? renamedKeys.get(issue.inst) : undefined
      return issue.keys
        .map((key) => {
          const now = renamed?.[key]
          if (now === undefined) return unknownKeyMessage(key, known)
          return typeof now === 'string'
            ? `\`${key}\` is now \`${now}\`; rename it`
            : `unknown key \`${key}\`; did you mean \`${now.write}\`?`
        })
        .join('\n')
    }
    case 'invalid_type':
      return `expected ${issue.expected}, received ${describeValue(issue.input)}`
    case 'invalid_value': {
      const values = issue.values.map(String)
      const suggestion = typeof issue.input === 'string' ? didYouMean(issue.input, values) : undefined
      return `expected one of ${values.join(', ')}, received ${describeValue(issue.input)}${suggestion ? `; did you mean \`${suggestion}\`?` : ''}`
    }
    case 'invalid_union': {
      const expected = issue.errors.flatMap((branch) =>
        branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0)
          ? branch.map((inner) => (inner.code === 'invalid_type' ? inner.expected : ''))
          : [],
      )
      return expected.length === issue.errors.length && expected.length > 0
        ? `expected ${[...new Set(expected)].join(' or ')}, received ${describeValue(issue.input)}`
        : undefined
    }
    default:
      return undefined
  }
}

/** Zod issues as path issues: one per unknown key, and unions reduced to the branch the value was meant for. */
export function flattenIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): PathIssue[] {
  return issues.flatMap((issue): PathIssue[] => {
    const path = [...prefix, ...issue.path]
    if (issue.code === 'unrecognized_keys') {
      const messages = issue.message.split('\n')
      return issue.keys.map((key, index) => ({
        path: [...path, key],
        message: messages[index] ?? `unknown key \`${key}\``,
        atKey: true,
      }))
    }
    if (issue.code === 'invalid_union') {
      const meant = issue.errors.filter(
        (branch) => !branch.every((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
      )
      if (meant.length === 1 && meant[0]) return flattenIssues(meant[0], path)
    }
    return [{ path, message: issue.message }]
  })
}

/** `cases[3].expect.tol` */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`
    const key = String(segment)
    if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${text}[${JSON.stringify(key)}]`
    return text ? `${text}.${key}` : key
  }, '')
}

export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const suggestion = didYouMean(key, known)
  return suggestion
    ? `unknown key \`${key}\`; did you mean \`${suggestion}\`?`
    : `unknown key \`${key}\`; expected one of ${known.map((k) => `\`${k}\``).join(', ')}`
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}`
  return typeof value === 'number' || typeof value === 'boolean' ? `${typeof value} ${value}` : typeof value
}
