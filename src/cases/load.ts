import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, resolve } from 'node:path'
import { glob, isDynamicPattern } from 'tinyglobby'
import { CaseFileError, ConfigError, type CaseFileIssue } from '../errors.ts'
import { importFunction, isFileRef, parseModuleRef } from '../evaluators/module-ref.ts'
import { buildSuite } from './build.ts'
import { caseFileErrorMap, flattenIssues, formatPath, type PathIssue } from './issues.ts'
import { caseFileSchema, type CaseEntry, type CaseFile } from './schema.ts'
import { parseJsonSource } from './json-source.ts'
import { selectCases } from './select.ts'
import type { SourceMap } from './source-map.ts'
import type { SelectOptions, Suite } from './suite.ts'

/**
 * Reads, validates and templates one YAML or JSON case file, and checks that the modules it names exist and
 * export functions. Throws CaseFileError listing every issue at once, each with file:line:column and its path.
 */
export async function loadSuite(file: string): Promise<Suite> {
  const absolute = resolve(file)
  let text: string
  try {
    text = await readFile(absolute, 'utf8')
  } catch (error) {
    throw new ConfigError(`Cannot read case file ${absolute}: ${(error as Error).message}`, { cause: error })
  }
  // yaml is loaded only for YAML files: JSON suites start faster without it
  const source =
    extname(absolute) === '.json'
      ? parseJsonSource(text)
      : (await import('./source-map.ts')).parseSource(text)
  const located = (issues: readonly PathIssue[]): CaseFileIssue[] =>
    issues.map((issue) => ({
      file: absolute,
      path: formatPath(issue.path),
      message: issue.message,
      ...source.locate(issue.path, issue.atKey),
    }))
  if (source.errors.length > 0) {
    throw new CaseFileError(source.errors.map((error) => ({ file: absolute, path: '', ...error })))
  }
  const parsed = caseFileSchema.safeParse(source.data, { error: caseFileErrorMap })
  const issues = duplicateIds(source)
  if (!parsed.success) {
    issues.push(...flattenIssues(parsed.error.issues))
    throw new CaseFileError(located(sortByPosition(issues, source)))
  }
  const { suite, issues: buildIssues } = buildSuite(absolute, parsed.data, source)
  issues.push(...buildIssues, ...(await moduleIssues(parsed.data, suite)))
  if (issues.length > 0) throw new CaseFileError(located(sortByPosition(issues, source)))
  return suite
}

/**
 * Loads every case file matching the patterns (globs or paths), keeps the cases selected by `filter` and `tags`,
 * and applies `only`. Throws ConfigError when no file or no case matches, and one CaseFileError listing the issues
 * of every file.
 */
export async function loadSuites(patterns: readonly string[], options: SelectOptions = {}): Promise<Suite[]> {
  const files = await findCaseFiles(patterns)
  const issues: CaseFileIssue[] = []
  const suites: Suite[] = []
  for (const result of await Promise.allSettled(files.map((file) => loadSuite(file)))) {
    if (result.status === 'fulfilled') suites.push(result.value)
    else if (result.reason instanceof CaseFileError) issues.push(...result.reason.issues)
    else throw result.reason
  }
  if (issues.length > 0) throw new CaseFileError(issues)
  const selected = selectCases(suites, options)
  if (selected.length === 0) {
    const total = suites.reduce((sum, suite) => sum + suite.cases.length, 0)
    const by = [
      options.filter ? `--filter "${options.filter}"` : '',
      options.tags?.length ? `--tag ${options.tags.join(',')}` : '',
    ]
    throw new ConfigError(
      `No case matches ${by.filter(Boolean).join(' ')} among ${total} cases in ${files.length} files.`,
    )
  }
  return selected
}

async function findCaseFiles(patterns: readonly string[]): Promise<string[]> {
  if (patterns.length === 0)
    throw new ConfigError('No case files given: pass a path or a glob such as `cases/*.yaml`.')
  const files = new Set<string>()
  for (const pattern of patterns) {
    if (!isDynamicPattern(pattern)) {
      if (!existsSync(pattern)) throw new ConfigError(`Case file not found: ${resolve(pattern)}`)
      files.add(resolve(pattern))
      continue
    }
    const matches = await glob(pattern, { absolute: true, onlyFiles: true })
    const caseFiles = matches.filter((match) => ['.yaml', '.yml', '.json'].includes(extname(match)))
    if (caseFiles.length === 0)
      throw new ConfigError(`No case file (.yaml, .yml, .json) matches "${pattern}".`)
    for (const match of caseFiles.sort()) files.add(match)
  }
  return [...files]
}

async function moduleIssues(file: CaseFile, suite: Suite): Promise<PathIssue[]> {
  const baseDir = dirname(suite.file)
  const refs = new Map<string, { ref: string; path: PropertyKey[] }>()
  const collect = (checks: Pick<CaseEntry, 'expect' | 'assert'> | undefined, at: PropertyKey[]) => {
    const shorthand = checks?.expect?.custom
    if (typeof shorthand === 'string')
      refs.set(formatPath([...at, 'expect']), { ref: shorthand, path: [...at, 'expect', 'custom'] })
    for (const [index, item] of (checks?.assert ?? []).entries()) {
      const path = [...at, 'assert', index, 'value']
      if (item.kind === 'custom' && typeof item.value === 'string')
        refs.set(formatPath(path), { ref: item.value, path })
    }
  }
  collect(file.defaults, ['defaults'])
  file.cases.forEach((entry, index) => {
    collect(entry, ['cases', index])
  })

  // one check per distinct reference: thousands of cases usually share a few checks
  const checked = new Map<string, Promise<string | undefined>>()
  const checks = [...refs.values()].map(async ({ ref, path }): Promise<PathIssue | undefined> => {
    let result = checked.get(ref)
    if (!result) {
      result = checkFunction(parseModuleRef(ref, baseDir))
      checked.set(ref, result)
    }
    const message = await result
    return message === undefined ? undefined : { path, message }
  })
  const { target } = suite
  if (target.type === 'agent' && !existsSync(target.module)) {
    checks.push(Promise.resolve({ path: ['target', 'agent'], message: `module not found: ${target.module}` }))
  }
  if (target.type === 'function') {
    checks.push(
      checkFunction({ module: target.module, exportName: target.exportName }).then((message) =>
        message === undefined ? undefined : { path: ['target', 'function'], message },
      ),
    )
  }
  return (await Promise.all(checks)).filter((issue) => issue !== undefined)
}

async function checkFunction(ref: { module: string; exportName: string }): Promise<string | undefined> {
  if (isFileRef(ref) && !existsSync(ref.module)) return `module not found: ${ref.module}`
  const loaded = await importFunction(ref)
  return typeof loaded === 'string' ? loaded : undefined
}

function duplicateIds(source: SourceMap): PathIssue[] {
  const cases = (source.data as { cases?: unknown } | null | undefined)?.cases
  if (!Array.isArray(cases)) return []
  const firstLine = new Map<string, number>()
  const issues: PathIssue[] = []
  cases.forEach((entry: unknown, index) => {
    const id = (entry as { id?: unknown } | null)?.id
    if (typeof id !== 'string') return
    const first = firstLine.get(id)
    if (first === undefined) firstLine.set(id, source.locate(['cases', index]).line)
    else
      issues.push({
        path: ['cases', index, 'id'],
        message: `duplicate case id \`${id}\` (first defined at line ${first})`,
      })
  })
  return issues
}

function sortByPosition(issues: readonly PathIssue[], source: SourceMap): PathIssue[] {
  const key = (issue: PathIssue) => {
    const { line, column } = source.locate(issue.path, issue.atKey)
    return line * 100_000 + column
  }
  return [...issues].sort((a, b) => key(a) - key(b))
}
