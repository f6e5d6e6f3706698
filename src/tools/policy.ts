import type { PolicyDecision } from '../types.ts'

/** A rule: a tool-name glob (`get_*`), or a glob plus conditions on the arguments. */
export type PolicyRule =
  | string
  | {
      tool: string
      /** argument globs that must all match, e.g. `{ to: '*@example.com' }` */
      args?: Record<string, string>
      /** a predicate over the parsed arguments */
      when?: (args: unknown) => boolean
    }

/**
 * Which tool calls may run. Rules are checked deny → review → allow; a call no rule matches gets `default`.
 * `review` asks the agent's `confirm` callback (no callback → denied).
 */
export interface PolicyRules {
  allow?: readonly PolicyRule[]
  review?: readonly PolicyRule[]
  deny?: readonly PolicyRule[]
  /** @default 'review' */
  default?: PolicyDecision
}

/** Decides what to do with one call, with the reason shown in the trace. */
export function decide(
  rules: PolicyRules,
  name: string,
  args: unknown,
): { decision: PolicyDecision; reason: string } {
  for (const decision of ['deny', 'review', 'allow'] as const) {
    const rule = rules[decision]?.find((candidate) => matches(candidate, name, args))
    if (rule !== undefined) return { decision, reason: `matched ${decision} rule ${describe(rule)}` }
  }
  const fallback = rules.default ?? 'review'
  return { decision: fallback, reason: `no rule matched; default is ${fallback}` }
}

function matches(rule: PolicyRule, name: string, args: unknown): boolean {
  if (typeof rule === 'string') return globToRegExp(rule).test(name)
  if (!globToRegExp(rule.tool).test(name)) return false
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {}
  for (const [key, pattern] of Object.entries(rule.args ?? {})) {
    const value = record[key]
    if (
      value === undefined ||
      !globToRegExp(pattern).test(typeof value === 'string' ? value : JSON.stringify(value))
    )
      return false
  }
  return rule.when ? rule.when(args) : true
}

function describe(rule: PolicyRule): string {
  if (typeof rule === 'string') return `\`${rule}\``
  const conditions = Object.entries(rule.args ?? {}).map(([key, pattern]) => `${key}=${pattern}`)
  if (rule.when) conditions.push('when(…)')
  return conditions.length > 0 ? `\`${rule.tool}\` [${conditions.join(', ')}]` : `\`${rule.tool}\``
}

const compiled = new Map<string, RegExp>()

/** `*` matches any run of characters, `?` one character; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  let regex = compiled.get(glob)
  if (!regex) {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')
    regex = new RegExp(`^${body}$`, 's')
    compiled.set(glob, regex)
  }
  return regex
}
