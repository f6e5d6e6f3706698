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
  type CaseFile,
  type Expectations,
} from './schema.ts'
import type { SourceMap } from './source-map.ts'
import type { CaseDefinition, Suite, TargetSpec } from './suite.ts'

/** Turns a validated case file into a Suite: vars rendered, defaults merged, paths resolved. */
export function buildSuite(
  file: string,
  raw: CaseFile,
  source: SourceMap,
): { suite: Suite; issues: PathIssue[] } {
  const issues: PathIssue[] = []
  const cases = raw.cases.map((entry, index) => buildCase(entry, index, raw, source, issues))
  const suite: Suite = {
    name: raw.suite,
    file,
    target: resolveTarget(raw.target, dirname(file)),
    trials: raw.trials ?? 1,
    cases,
    ...optional('description', raw.description),
    ...optional('model', raw.model),
    ...optional('judge', raw.judge),
    ...optional('timeoutMs', raw.timeout_ms),
    ...optional('gate', raw.gate),
  }
  return { suite, issues }
}

function buildCase(
  entry: CaseEntry,
  index: number,
  raw: CaseFile,
  source: SourceMap,
  issues: PathIssue[],
): CaseDefinition {
  const at = ['cases', index]
  const { vars } = entry
  const inDefaults = (path: PropertyKey[]) => (path[0] === 'defaults' ? ` (in case \`${entry.id}\`)` : '')
  const render = <T>(value: T, path: PropertyKey[]): T => {
    if (!hasTemplate(value)) return value
    const rendered = renderDeep(value, vars, path)
    if (rendered.ok) return rendered.value as T
    issues.push({ path: rendered.path, message: `${rendered.error}${inDefaults(path)}` })
    return value
  }

  const input: string | Turn[] =
    typeof entry.input === 'string'
      ? render(entry.input, [...at, 'input'])
      : entry.input.map((turn, turnIndex) => ({
          role: turn.role,
          content: render(turn.content, [...at, 'input', turnIndex, 'content']),
        }))

  const expect: Expectations = {}
  for (const [kind, value] of Object.entries({ ...raw.defaults?.expect, ...entry.expect })) {
    const path = entry.expect?.[kind] === undefined ? ['defaults', 'expect', kind] : [...at, 'expect', kind]
    const rendered = render(value, path)
    if (hasTemplate(value))
      revalidate(evaluatorRegistry.get(kind)?.shorthand.safeParse(rendered), path, issues, inDefaults(path))
    expect[kind] = rendered
  }

  const assertions: [Assertion, PropertyKey[]][] = [
    ...(raw.defaults?.assert ?? []).map((item, i): [Assertion, PropertyKey[]] => [
      item,
      ['defaults', 'assert', i],
    ]),
    ...(entry.assert ?? []).map((item, i): [Assertion, PropertyKey[]] => [item, [...at, 'assert', i]]),
  ]
  const assert = assertions.map(([item, path]) => {
    const rendered = render(item, path)
    if (hasTemplate(item)) revalidate(assertionSchema.safeParse(rendered), path, issues, inDefaults(path))
    return rendered
  })

  if (Object.keys(expect).length === 0 && assert.length === 0 && !entry.judge?.length) {
    issues.push({
      path: at,
      message: `case \`${entry.id}\` has no checks: add \`expect\`, \`assert\` or \`judge\``,
    })
  }

  const skip = entry.skip === true ? 'skipped in the case file' : entry.skip || undefined
  return {
    id: entry.id,
    input,
    vars,
    tags: [...new Set([...(raw.defaults?.tags ?? []), ...entry.tags])],
    weight: entry.weight,
    only: entry.only,
    trials: entry.trials ?? raw.defaults?.trials ?? raw.trials ?? 1,
    expect,
    assert,
    line: source.locate(at).line,
    ...optional('description', entry.description),
    ...optional('skip', skip),
    ...optional('timeoutMs', entry.timeout_ms ?? raw.defaults?.timeout_ms ?? raw.timeout_ms),
    ...optional('judge', entry.judge),
  }
}

function resolveTarget(target: CaseFile['target'], baseDir: string): TargetSpec {
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
  return Object.values(value).some(hasTemplate)
}

/** `{ key: value }` when value is defined, `{}` otherwise: keeps exactOptionalPropertyTypes happy. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V })
}
