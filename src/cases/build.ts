import { InternalError } from '../errors.ts'
import { dirname, resolve } from 'node:path'
import { parseModuleRef } from '../evaluators/module-ref.ts'
import { evaluatorRegistry } from '../evaluators/registry.ts'
import type { McpServerOptions } from '../mcp/options.ts'
import type { Turn } from '../types.ts'
import { flattenIssues, type PathIssue } from './issues.ts'
import { renderDeep } from '../util/template.ts'
import {
  assertionSchema,
  type Assertion,
  type CaseEntry,
  type CaseFileHeader,
  type Expectations,
} from './schema.ts'
import type { CaseList } from './case-list.ts'
import type { Suite, Variant } from './suite.ts'
import type { CaseDefinition, ScriptedTurn } from './case-definition.ts'
import type { TargetSpec } from '../targets/target.ts'

/** The empty `vars` and `expect` that cases without them share; frozen, as nothing may change them. */
export const emptyRecord: Record<string, unknown> = Object.freeze({})
/** The empty `tags` and `assert` that cases without them share; frozen, as nothing may change them. */
export const emptyList = Object.freeze([]) as never[]

/** A check whose value held a template, to validate again once rendered: in the issue list where its issues go. */
export interface RenderedCheck {
  path: PropertyKey[]
  /** the `expect:` kind; absent for an `assert:` item */
  kind?: string
  value: unknown
  /** appended to each issue's message */
  suffix: string
}

/** The suite around its cases: target resolved, suite-level settings copied. */
export function buildSuite(file: string, raw: CaseFileHeader, cases: CaseList, fileHash: string): Suite {
  return {
    name: raw.suite,
    file,
    fileHash,
    target: resolveTarget(raw.target, dirname(file)),
    trials: raw.trials ?? 1,
    cases,
    ...optional('description', raw.description),
    ...optional('model', raw.model),
    ...optional('judge', raw.judge),
    ...optional('timeoutMs', raw.timeout_ms),
    ...optional('gate', raw.gate),
    ...optional('redact', raw.redact),
    ...optional('traceSettings', traceSettingsOf(raw.trace)),
    ...optional(
      'variants',
      // zod leaves absent optional keys out, as exactOptionalPropertyTypes wants
      raw.variants?.map(({ target, ...variant }) => ({
        ...variant,
        ...optional('target', target && resolveTarget(target, dirname(file))),
      })) as Variant[] | undefined,
    ),
  }
}

/**
 * Turns one validated case into a CaseDefinition: vars rendered, defaults merged. It may share the entry's
 * objects, which the caller owns.
 */
export function buildCase(
  entry: CaseEntry,
  index: number,
  raw: CaseFileHeader,
  line: number,
  issues: (PathIssue | RenderedCheck)[],
): CaseDefinition {
  const { vars } = entry
  const defaults = raw.defaults
  const inDefaults = (path: PropertyKey[]) => (path[0] === 'defaults' ? ` (in case \`${entry.id}\`)` : '')
  // paths are built only for values holding a template: most cases have none
  const render = <T>(value: T, path: () => PropertyKey[]): T => {
    if (!hasTemplate(value)) return value
    const at = path()
    const rendered = renderDeep(value, vars, at)
    if (rendered.ok) return rendered.value as T
    issues.push({ path: rendered.path, message: `${rendered.error}${inDefaults(at)}` })
    return value
  }

  const input: string | Turn[] =
    typeof entry.input === 'string'
      ? render(entry.input, () => ['cases', index, 'input'])
      : (entry.input ?? emptyList).map((turn, turnIndex) => ({
          content: render(turn.content, () => ['cases', index, 'input', turnIndex, 'content']),
          role: turn.role,
        }))
  const turns = entry.turns?.map((turn, turnIndex): ScriptedTurn => {
    const at = ['cases', index, 'turns', turnIndex]
    const expect: Expectations = { ...turn.expect }
    for (const kind in expect) {
      if (!hasTemplate(expect[kind])) continue
      const path = [...at, 'expect', kind]
      expect[kind] = render(expect[kind], () => path)
      issues.push({ path, kind, value: expect[kind], suffix: '' })
    }
    return { user: render(turn.user, () => [...at, 'user']), expect }
  })

  // with nothing to merge, the case shares its own or the defaults' `expect`, copied only to render into it
  const shared = !defaults?.expect ? entry.expect : isEmpty(entry.expect ?? {}) ? defaults.expect : undefined
  let expect: Expectations = shared ?? { ...defaults?.expect, ...entry.expect }
  for (const kind in expect) {
    const value = expect[kind]
    if (!hasTemplate(value)) continue
    const path =
      entry.expect?.[kind] === undefined ? ['defaults', 'expect', kind] : ['cases', index, 'expect', kind]
    const rendered = render(value, () => path)
    issues.push({ path, kind, value: rendered, suffix: inDefaults(path) })
    if (expect === shared) expect = { ...shared }
    expect[kind] = rendered
  }

  let assert: Assertion[] = emptyList
  const addAssertions = (items: readonly Assertion[] | undefined, at: readonly PropertyKey[]) => {
    items?.forEach((item, i) => {
      if (assert === emptyList) assert = []
      if (!hasTemplate(item)) {
        assert.push(item)
        return
      }
      const path = [...at, i]
      const rendered = render(item, () => path)
      issues.push({ path, value: rendered, suffix: inDefaults(path) })
      assert.push(rendered)
    })
  }
  addAssertions(defaults?.assert, ['defaults', 'assert'])
  addAssertions(entry.assert, ['cases', index, 'assert'])

  const turnChecks = turns?.some((turn) => !isEmpty(turn.expect)) ?? false
  if (
    assert.length === 0 &&
    !entry.judge?.length &&
    isEmpty(expect) &&
    !turnChecks &&
    entry.simulated_user === undefined
  ) {
    issues.push({
      path: ['cases', index],
      message: `case \`${entry.id}\` has no checks: add \`expect\`, \`assert\` or \`judge\`${turns ? ', or `expect` to a turn' : ''}`,
    })
  }

  const skip = entry.skip === true ? 'skipped in the case file' : entry.skip || undefined
  const simulatedUser = entry.simulated_user && renderSimulatedUser(entry.simulated_user, index, render)
  return {
    id: entry.id,
    input,
    vars: isEmpty(vars) ? emptyRecord : vars,
    tags: mergeTags(defaults?.tags, entry.tags),
    weight: entry.weight,
    only: entry.only,
    trials: entry.trials ?? defaults?.trials ?? raw.trials ?? 1,
    expect: isEmpty(expect) ? emptyRecord : expect,
    assert,
    line,
    ...optional('description', entry.description),
    ...optional('skip', skip),
    ...optional('timeoutMs', entry.timeout_ms ?? defaults?.timeout_ms),
    ...optional('judge', entry.judge),
    ...optional('turns', turns),
    ...optional('snapshot', entry.snapshot === false ? undefined : entry.snapshot),
    ...optional('simulatedUser', simulatedUser),
    ...optional('critical', criticalOf(entry.critical)),
    ...optional('expectFail', entry.expect_fail === false ? undefined : entry.expect_fail),
    ...optional('approvals', entry.approvals),
    ...optional('trace', (entry.trace ?? (raw.trace !== undefined && raw.trace !== false)) || undefined),
  }
}

function criticalOf(critical: CaseEntry['critical']): CaseDefinition['critical'] {
  if (critical === undefined || critical === false) return undefined
  if (critical === true || critical.min_pass_rate === undefined) return {}
  return { minPassRate: critical.min_pass_rate }
}

function renderSimulatedUser(
  user: NonNullable<CaseEntry['simulated_user']>,
  index: number,
  render: <T>(value: T, at: () => PropertyKey[]) => T,
): NonNullable<CaseDefinition['simulatedUser']> {
  const { goal, persona, max_turns, model } = user
  const at = ['cases', index, 'simulated_user']
  return {
    goal: render(goal, () => [...at, 'goal']),
    maxTurns: max_turns,
    ...optional('persona', persona === undefined ? undefined : render(persona, () => [...at, 'persona'])),
    ...optional('model', model),
  }
}

function resolveTarget(target: CaseFileHeader['target'], baseDir: string): TargetSpec {
  if (target.agent !== undefined) {
    // zod leaves absent optional keys out, as exactOptionalPropertyTypes wants
    const mcp = target.mcp?.map((server) =>
      'url' in server ? server : { ...server, cwd: resolve(baseDir, server.cwd ?? '.') },
    ) as McpServerOptions[] | undefined
    return { type: 'agent', module: resolve(baseDir, target.agent), ...optional('mcp', mcp) }
  }
  if (target.function !== undefined) {
    const ref = parseModuleRef(target.function, baseDir)
    return { type: 'function', module: ref.module, exportName: ref.exportName }
  }
  if (target.http !== undefined) {
    const { url, method, headers, body, output, usage, tool_calls, model, timeout_ms } = target.http
    return {
      type: 'http',
      url,
      method,
      headers,
      ...optional('body', body),
      ...optional('output', output),
      ...optional('usage', usage),
      ...optional('toolCalls', tool_calls),
      ...optional('model', model),
      ...optional('timeoutMs', timeout_ms),
    }
  }
  const command =
    typeof target.command === 'string' ? { run: target.command, input: 'stdin' as const } : target.command
  if (command === undefined) throw new InternalError('unreachable: the schema requires one target kind')
  return {
    type: 'command',
    command: command.run,
    input: command.input,
    cwd: baseDir,
    ...optional('timeoutMs', 'timeout_ms' in command ? command.timeout_ms : undefined),
  }
}

/** The issues with each rendered check replaced by its own issues, if any. */
export function settleIssues(items: readonly (PathIssue | RenderedCheck)[]): PathIssue[] {
  return items.flatMap((item) => {
    if ('message' in item) return [item]
    const result =
      item.kind === undefined
        ? assertionSchema.safeParse(item.value)
        : evaluatorRegistry.get(item.kind)?.shorthand.safeParse(item.value)
    if (!result || result.success) return []
    return flattenIssues(result.error.issues, item.path).map((issue) => ({
      ...issue,
      message: `${issue.message} (after rendering vars)${item.suffix}`,
    }))
  })
}

/** The defaults' tags, then the case's own, each once. */
function mergeTags(defaults: readonly string[] | undefined, own: string[]): string[] {
  const tags = defaults?.length
    ? [...new Set([...defaults, ...own])]
    : own.length < 2
      ? own
      : [...new Set(own)]
  return tags.length === 0 ? emptyList : tags
}

function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{')
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return (value as unknown[]).some(hasTemplate)
  for (const key in value) if (hasTemplate((value as Record<string, unknown>)[key])) return true
  return false
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false
  return true
}

/** `{ key: value }` when value is defined, `{}` otherwise: keeps exactOptionalPropertyTypes happy. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V })
}

/** The suite's `trace: { quiet_ms, max_wait_ms, port }`, when it gives any. */
function traceSettingsOf(trace: CaseFileHeader['trace']): Suite['traceSettings'] {
  if (typeof trace !== 'object') return undefined
  const { quiet_ms, max_wait_ms, port } = trace
  if (quiet_ms === undefined && max_wait_ms === undefined && port === undefined) return undefined
  return {
    ...optional('quietMs', quiet_ms),
    ...optional('maxWaitMs', max_wait_ms),
    ...optional('port', port),
  }
}
