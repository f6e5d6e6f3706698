import { dirname, resolve } from 'node:path'
import { evaluatorRegistry } from '../evaluators/index.ts'
import { parseModuleRef } from '../evaluators/module-ref.ts'
import type { Turn } from '../types.ts'
import { flattenIssues, type PathIssue } from './issues.ts'
import { renderDeep } from './render.ts'
import {
  assertionSchema,
  type Assertion,
  type CaseEntry,
  type CaseFileHeader,
  type Expectations,
} from './schema.ts'
import type { CaseDefinition, Suite, TargetSpec } from './suite.ts'

/** The suite around its cases: target resolved, suite-level settings copied. `cases` is left empty. */
export function buildSuite(file: string, raw: CaseFileHeader): Suite {
  return {
    name: raw.suite,
    file,
    target: resolveTarget(raw.target, dirname(file)),
    trials: raw.trials ?? 1,
    cases: [],
    ...optional('description', raw.description),
    ...optional('model', raw.model),
    ...optional('judge', raw.judge),
    ...optional('timeoutMs', raw.timeout_ms),
    ...optional('gate', raw.gate),
  }
}

/** Turns one validated case into a CaseDefinition: vars rendered, defaults merged. */
export function buildCase(
  entry: CaseEntry,
  index: number,
  raw: CaseFileHeader,
  line: number,
  issues: PathIssue[],
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
      : entry.input.map((turn, turnIndex) => ({
          role: turn.role,
          content: render(turn.content, () => ['cases', index, 'input', turnIndex, 'content']),
        }))

  const expect: Expectations = {}
  const merged = defaults?.expect ? { ...defaults.expect, ...entry.expect } : (entry.expect ?? {})
  for (const kind in merged) {
    const value = merged[kind]
    if (hasTemplate(value)) {
      const path =
        entry.expect?.[kind] === undefined ? ['defaults', 'expect', kind] : ['cases', index, 'expect', kind]
      const rendered = render(value, () => path)
      revalidate(evaluatorRegistry.get(kind)?.shorthand.safeParse(rendered), path, issues, inDefaults(path))
      expect[kind] = rendered
    } else expect[kind] = value
  }

  const assert: Assertion[] = []
  const addAssertions = (items: readonly Assertion[] | undefined, at: readonly PropertyKey[]) => {
    items?.forEach((item, i) => {
      if (!hasTemplate(item)) {
        assert.push(item)
        return
      }
      const path = [...at, i]
      const rendered = render(item, () => path)
      revalidate(assertionSchema.safeParse(rendered), path, issues, inDefaults(path))
      assert.push(rendered)
    })
  }
  addAssertions(defaults?.assert, ['defaults', 'assert'])
  addAssertions(entry.assert, ['cases', index, 'assert'])

  if (assert.length === 0 && !entry.judge?.length && isEmpty(expect)) {
    issues.push({
      path: ['cases', index],
      message: `case \`${entry.id}\` has no checks: add \`expect\`, \`assert\` or \`judge\``,
    })
  }

  const skip = entry.skip === true ? 'skipped in the case file' : entry.skip || undefined
  const defaultTags = defaults?.tags
  return {
    id: entry.id,
    input,
    vars,
    tags:
      !defaultTags?.length && entry.tags.length < 2
        ? [...entry.tags]
        : [...new Set([...(defaultTags ?? []), ...entry.tags])],
    weight: entry.weight,
    only: entry.only,
    trials: entry.trials ?? defaults?.trials ?? raw.trials ?? 1,
    expect,
    assert,
    line,
    ...optional('description', entry.description),
    ...optional('skip', skip),
    ...optional('timeoutMs', entry.timeout_ms ?? defaults?.timeout_ms ?? raw.timeout_ms),
    ...optional('judge', entry.judge),
  }
}

function resolveTarget(target: CaseFileHeader['target'], baseDir: string): TargetSpec {
  if (target.agent !== undefined) return { type: 'agent', module: resolve(baseDir, target.agent) }
  if (target.function !== undefined) {
    const ref = parseModuleRef(target.function, baseDir)
    return { type: 'function', module: ref.module, exportName: ref.exportName }
  }
  if (target.http !== undefined) {
    const { url, method, headers, body, output, timeout_ms } = target.http
    return {
      type: 'http',
      url,
      method,
      headers,
      ...optional('body', body),
      ...optional('output', output),
      ...optional('timeoutMs', timeout_ms),
    }
  }
  const command =
    typeof target.command === 'string' ? { run: target.command, input: 'stdin' as const } : target.command
  if (command === undefined) throw new Error('unreachable: the schema requires one target kind')
  return {
    type: 'command',
    command: command.run,
    input: command.input,
    cwd: baseDir,
    ...optional('timeoutMs', 'timeout_ms' in command ? command.timeout_ms : undefined),
  }
}

function revalidate(
  result:
    | { success: true }
    | { success: false; error: { issues: Parameters<typeof flattenIssues>[0] } }
    | undefined,
  path: PropertyKey[],
  issues: PathIssue[],
  suffix: string,
): void {
  if (!result || result.success) return
  for (const issue of flattenIssues(result.error.issues, path)) {
    issues.push({ ...issue, message: `${issue.message} (after rendering vars)${suffix}` })
  }
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
