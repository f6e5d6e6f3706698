import { existsSync } from 'node:fs'
import { hash } from 'node:crypto'
import { open } from 'node:fs/promises'
import { constants } from 'node:fs'
import { dirname, extname, resolve } from 'node:path'
import { CaseFileError, ConfigError, type CaseFileIssue } from '../errors.ts'
import { importFunction, isFileRef, parseModuleRef } from '../evaluators/module-ref.ts'
import { buildCase, buildSuite, settleIssues, type RenderedCheck } from './build.ts'
import { CaseListBuilder } from './case-list.ts'
import { DatasetCases } from './datasets/dataset-cases.ts'
import { boundedGlob, checkNesting, notRegularFile } from './file-checks.ts'
import { TypedList } from '../util/typed-list.ts'
import { caseFileErrorMap, flattenIssues, formatPath, type PathIssue } from './issues.ts'
import { parseJsonSource } from './json-source.ts'
import { largeJsonSource } from './large-files/large-json-source.ts'
import { LARGE_FILE_BYTES, SourceSyntaxError, type ReadSource } from './large-files/large-source.ts'
import { caseFileHeaderSchema, caseSchema, type CaseEntry, type CaseFileHeader } from './schema.ts'
import { selectCases } from './select.ts'
import type { SourceMap } from './source-map.ts'
import type { SelectOptions, Suite } from './suite.ts'
import type { CaseDefinition } from './case-definition.ts'
import { formatCount } from '../util/format-count.ts'

/** Options of `loadSuite`. */
export interface LoadSuiteOptions {
  /** read the cases from this copy of the file instead (a run's snapshot); paths still resolve against `file` */
  from?: string
}

/**
 * Reads, validates and templates one YAML or JSON case file, and checks that the modules it names exist and
 * export functions. Throws CaseFileError listing every issue at once, each with file:line:column and its path.
 */
export function loadSuite(file: string, options: LoadSuiteOptions = {}): Promise<Suite> {
  const absolute = resolve(file)
  return load(absolute, options.from === undefined ? absolute : resolve(options.from), false)
}

/** A file this broken is a wrong file or a wrong format: the first problems say which, the rest are not looked for. */
const MAX_FILE_ISSUES = 1000

/** `loadSuite` reading the cases from `from`; `whole`: parse a large case file whole, as a small one is. */
async function load(absolute: string, from: string, whole: boolean): Promise<Suite> {
  const { source, hash } = await readSource(from, extname(absolute) === '.json', whole)
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
  if (Array.isArray(source.data)) throw new CaseFileError(located([bareListIssue]))
  const issues: PathIssue[] = []
  const duplicates = new DuplicateIds(source)
  const header = parseHeader(source.data, issues)
  // each case is validated, then built at once, and the parsed entry dropped: no whole-file copy is ever held
  const entries = rawCases(source.data)
  const { caseEntry } = source
  // a large case file keeps no definitions, nor its text: each case is read and built again when it runs
  const datasets = new DatasetCases(absolute, inlineIds(entries, source))
  // a dataset's rows are built again from their bytes in it when they run, as a large case file's cases
  const again = (caseEntry && header && rebuild(from, caseEntry, header)) || datasets.rows.rebuild
  const cases = new CaseListBuilder(again, entries.length)
  const buildIssues: (PathIssue | RenderedCheck)[] = []
  const refs = new ModuleRefs()
  let valid = header !== undefined
  for (let index = 0; index < entries.length; index++) {
    const raw = caseEntry ? lateEntry(caseEntry, index, absolute) : entries[index]
    if (typeof raw === 'string') {
      // a large case file's cases are built again by their index in the file, which rows would shift: read it whole
      if (caseEntry) return load(absolute, from, true)
      const path = Array.isArray((source.data as { cases?: unknown }).cases) ? ['cases', index] : ['cases']
      if (header)
        await datasets.add({
          pattern: raw,
          path,
          line: source.line(path),
          header,
          cases,
          issues: buildIssues,
        })
      continue
    }
    duplicates.check(raw, index, issues)
    const entry = parseCase(raw, index, issues)
    entries[index] = undefined
    if (issues.length >= MAX_FILE_ISSUES) {
      issues.push({
        path: [],
        message: `stopped after ${formatCount(MAX_FILE_ISSUES)} problems, at case ${formatCount(index + 1)} of ${formatCount(entries.length)}; fix these and run again`,
      })
      valid = false
      break
    }
    if (!entry) {
      valid = false
      continue
    }
    // the other cases are still built and their modules checked: every problem of the file is reported at once
    if (!header) continue
    refs.collect(entry, index)
    const caseDef = buildCase(entry, index, header, source.line(['cases', index]), buildIssues)
    cases.add(caseDef, caseEntry === undefined)
  }
  const suite = header && buildSuite(absolute, header, cases.done(), hash)
  refs.collect(header?.defaults, -1)
  // one by one: spreading many issues into a call overflows the stack
  for (const issue of [settleIssues(buildIssues), await refs.issues(dirname(absolute), suite?.target)].flat())
    issues.push(issue)
  if (!valid || !suite || issues.length > 0 || datasets.issues.length > 0)
    throw new CaseFileError([...located(sortByPosition(issues, source)), ...datasets.issues])
  if (datasets.hash !== undefined) suite.datasetsHash = datasets.hash
  return suite
}

/** selectools' JSON case file is a bare list of cases; here the list is the `cases:` of a suite */
const bareListIssue: PathIssue = {
  path: [],
  message:
    'a case file is an object, not a bare list of cases; wrap the list as ' +
    '{ "suite": "my-suite", "target": { "agent": "./agent.ts" }, "cases": [ …your cases… ] }',
}

/** A case file parsed, with the SHA-256 of its bytes: a large case file in parts unless `whole`, any other whole. */
async function readSource(path: string, json: boolean, whole: boolean): Promise<ReadSource> {
  let bytes: Buffer
  try {
    // non-blocking: opening a FIFO would wait for a writer; it is refused below with the other special files
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      const stats = await handle.stat()
      if (!stats.isFile()) throw new ConfigError(notRegularFile(path, stats))
      const { size, mtimeMs } = stats
      const large =
        whole || size < LARGE_FILE_BYTES
          ? undefined
          : await largeSource(json, path, handle.fd, { size, mtimeMs })
      if (large !== undefined && !Buffer.isBuffer(large)) return large
      bytes = large ?? (await handle.readFile())
    } finally {
      await handle.close()
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error
    throw new ConfigError(`Cannot read case file ${path}: ${(error as Error).message}`, { cause: error })
  }
  const text = bytes.toString('utf8')
  checkNesting(path, text)
  // yaml is loaded only for YAML files: JSON suites start faster without it
  const source = json ? parseJsonSource(text) : (await import('./yaml-source.ts')).parseYamlSource(text)
  return { source, hash: hash('sha256', bytes, 'hex') }
}

/**
 * A large case file read in parts, or the bytes already read of one that cannot be; the YAML reader loads only for a
 * large YAML file.
 */
async function largeSource(
  json: boolean,
  path: string,
  fd: number,
  stats: { size: number; mtimeMs: number },
): Promise<ReadSource | Buffer | undefined> {
  if (json) return largeJsonSource(path, fd, stats)
  const { largeYamlSource } = await import('./large-files/large-yaml-source.ts')
  return largeYamlSource(path, fd, stats)
}

/** Builds a case again from its entry in the file (`caseEntry`), as it was built when loaded. */
function rebuild(
  file: string,
  caseEntry: (index: number) => unknown,
  header: CaseFileHeader,
): (index: number, line: number) => CaseDefinition {
  return (index, line) => {
    const raw = caseEntry(index)
    const entry = parseCase(raw, index, [])
    if (!entry)
      throw new ConfigError(`${file}: case ${String(index + 1)} no longer reads as it did when loaded`)
    return buildCase(entry, index, header, line, [])
  }
}

/** A case parsed only now; a syntax error in it is the file's error, as a whole-file parse would have given. */
function lateEntry(caseEntry: (index: number) => unknown, index: number, file: string): unknown {
  try {
    return caseEntry(index)
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error
    const { message, line, column } = error
    throw new CaseFileError([{ file, path: '', message, line, column }])
  }
}

/** The `cases:` list of the parsed file when it is one (emptied as it is built), else nothing to validate. */
function rawCases(data: unknown): unknown[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return []
  const cases = (data as { cases?: unknown }).cases
  if (typeof cases === 'string') return [cases]
  return Array.isArray(cases) ? (cases as unknown[]) : []
}

/** The ids and lines of the file's own cases when it also names datasets, whose rows must not reuse them. */
function* inlineIds(entries: readonly unknown[], source: SourceMap): Generator<[string, number]> {
  if (!entries.some((entry) => typeof entry === 'string')) return
  for (const [index, entry] of entries.entries()) {
    const id = (entry as { id?: unknown } | null | undefined)?.id
    if (typeof id === 'string') yield [id, source.line(['cases', index])]
  }
}

function parseHeader(data: unknown, issues: PathIssue[]): CaseFileHeader | undefined {
  const parsed = caseFileHeaderSchema.safeParse(data, { error: caseFileErrorMap })
  if (parsed.success) return parsed.data
  issues.push(...flattenIssues(parsed.error.issues))
  return undefined
}

function parseCase(raw: unknown, index: number, issues: PathIssue[]): CaseEntry | undefined {
  const parsed = caseSchema.safeParse(raw, { error: caseFileErrorMap })
  if (parsed.success) return parsed.data
  issues.push(...flattenIssues(parsed.error.issues, ['cases', index]))
  return undefined
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
    // one by one: spreading 130,000 issues into a call overflows the stack
    else if (result.reason instanceof CaseFileError)
      for (const issue of result.reason.issues) issues.push(issue)
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

/** what picomatch's scan, behind `isDynamicPattern`, reads as glob syntax or an escape */
const globCharacters = /[*?[\]{}()!+@\\]/

async function findCaseFiles(patterns: readonly string[]): Promise<string[]> {
  if (patterns.length === 0)
    throw new ConfigError('No case files given: pass a path or a glob such as `cases/*.yaml`.')
  const files = new Set<string>()
  for (const pattern of patterns) {
    // tinyglobby (~20 ms) loads only for a pattern holding a character that can make it a glob
    const globs = globCharacters.test(pattern) ? await import('tinyglobby') : undefined
    if (!globs?.isDynamicPattern(pattern)) {
      if (!existsSync(pattern)) throw new ConfigError(`Case file not found: ${resolve(pattern)}`)
      files.add(resolve(pattern))
      continue
    }
    const matches = await boundedGlob(globs, pattern, { absolute: true, onlyFiles: true })
    const caseFiles = matches.filter((match) => ['.yaml', '.yml', '.json'].includes(extname(match)))
    if (caseFiles.length === 0)
      throw new ConfigError(`No case file (.yaml, .yml, .json) matches "${pattern}".`)
    for (const match of caseFiles.sort()) files.add(match)
  }
  return [...files]
}

/**
 * The `custom:` module references of a file, recorded compactly as the cases stream by: each distinct reference is
 * checked once, and paths are rebuilt only for the references that fail.
 */
class ModuleRefs {
  /** reference → its uses, two numbers each: the case index (-1 for the defaults) and the `assert:` index (-1 for `expect:`) */
  private readonly uses = new Map<string, TypedList<Int32Array>>()

  collect(checks: Pick<CaseEntry, 'expect' | 'assert'> | undefined, at: number): void {
    const shorthand = checks?.expect?.custom
    if (typeof shorthand === 'string') this.use(shorthand, at, -1)
    checks?.assert?.forEach((item, index) => {
      if (item.kind === 'custom' && typeof item.value === 'string') this.use(item.value, at, index)
    })
  }

  /** the references that do not resolve to a function, and the target's module when `target` is known */
  async issues(baseDir: string, target: Suite['target'] | undefined): Promise<PathIssue[]> {
    const refs = [...this.uses]
    const messages = await Promise.all(refs.map(([ref]) => checkFunction(parseModuleRef(ref, baseDir))))
    const failed: { at: number; assert: number; message: string }[] = []
    refs.forEach(([, uses], index) => {
      const message = messages[index]
      if (message === undefined) return
      for (let use = 0; use < uses.length; use += 2)
        failed.push({ at: uses.get(use), assert: uses.get(use + 1), message })
    })
    // in the order the cases were read, the defaults first
    failed.sort((a, b) => a.at - b.at || a.assert - b.assert)
    const issues = failed.map(({ at, assert, message }): PathIssue => {
      const where = at < 0 ? ['defaults'] : ['cases', at]
      const path = assert < 0 ? [...where, 'expect', 'custom'] : [...where, 'assert', assert, 'value']
      return { path, message }
    })
    if (target?.type === 'agent' && !existsSync(target.module)) {
      issues.push({ path: ['target', 'agent'], message: `module not found: ${target.module}` })
    }
    if (target?.type === 'function') {
      const message = await checkFunction({ module: target.module, exportName: target.exportName })
      if (message !== undefined) issues.push({ path: ['target', 'function'], message })
    }
    return issues
  }

  private use(ref: string, at: number, assert: number): void {
    let uses = this.uses.get(ref)
    // every case of a 100k-case file may use the same reference
    if (!uses) this.uses.set(ref, (uses = new TypedList(Int32Array)))
    uses.push(at)
    uses.push(assert)
  }
}

async function checkFunction(ref: { module: string; exportName: string }): Promise<string | undefined> {
  if (isFileRef(ref) && !existsSync(ref.module)) return `module not found: ${ref.module}`
  const loaded = await importFunction(ref)
  return typeof loaded === 'string' ? loaded : undefined
}

/** Finds repeated case ids, one case at a time (cases may be parsed only as they are built). */
class DuplicateIds {
  /** the first index of each id; its line is looked up only for a duplicate */
  readonly #firstIndex = new Map<string, number>()
  readonly #source: SourceMap

  constructor(source: SourceMap) {
    this.#source = source
  }

  check(entry: unknown, index: number, issues: PathIssue[]): void {
    const id = (entry as { id?: unknown } | null | undefined)?.id
    if (typeof id !== 'string') return
    const first = this.#firstIndex.get(id)
    if (first === undefined) this.#firstIndex.set(id, index)
    else
      issues.push({
        path: ['cases', index, 'id'],
        message: `duplicate case id \`${id}\` (first defined at line ${this.#source.line(['cases', first])})`,
      })
  }
}

function sortByPosition(issues: readonly PathIssue[], source: SourceMap): PathIssue[] {
  const key = (issue: PathIssue) => {
    const { line, column } = source.locate(issue.path, issue.atKey)
    return line * 100_000 + column
  }
  return [...issues].sort((a, b) => key(a) - key(b))
}
