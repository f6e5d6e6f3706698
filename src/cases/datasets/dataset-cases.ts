import { hash } from 'node:crypto'
import { statSync } from 'node:fs'
import { basename, dirname, extname, relative, resolve } from 'node:path'
import type { CaseFileIssue } from '../../errors.ts'
import { buildCase, settleIssues, type RenderedCheck } from '../build.ts'
import type { CaseListBuilder } from '../case-list.ts'
import type { PathIssue } from '../issues.ts'
import type { CaseFileHeader } from '../schema.ts'
import { missingColumns, rowEntry } from './columns.ts'
import { DatasetRows } from './dataset-rows.ts'
import { boundedGlob, notRegularFile } from '../file-checks.ts'
import type { DatasetReader } from './rows.ts'

type ReaderModule = Promise<(path: string) => DatasetReader>
// csv-parse loads only for a suite that reads a CSV file
const readers: Record<string, () => ReaderModule> = {
  '.csv': () => import('./csv.ts').then((module) => module.readCsv),
  '.jsonl': () => import('./jsonl.ts').then((module) => module.readJsonl),
  '.ndjson': () => import('./jsonl.ts').then((module) => module.readJsonl),
}
/** past this many bad rows in one file, the rest are counted, not listed */
const MAX_ROW_ISSUES = 20

/** Where a `cases:` entry naming a dataset sits in the case file, and where its cases and issues go. */
export interface DatasetRef {
  /** the file or glob, relative to the case file */
  pattern: string
  /** its path in the case file (`cases` or `cases[2]`), for issues about the reference itself */
  path: PropertyKey[]
  /** its line in the case file: the line of each of its cases */
  line: number
  header: CaseFileHeader
  /** where the rows' cases go: only what the list keeps of every case stays, each built again when it runs */
  cases: CaseListBuilder
  /** issues located in the case file (a missing file, a template that fails on a row) */
  issues: (PathIssue | RenderedCheck)[]
}

/**
 * The cases of one case file that come from CSV and JSONL files, one per row, streamed. Collects the rows' issues
 * located at file:line, checks ids are unique across the rows and the file's own cases, and hashes the bytes read.
 */
export class DatasetCases {
  /** issues located in a dataset file */
  readonly issues: CaseFileIssue[] = []
  readonly #caseFile: string
  /** where each id was first seen, e.g. `support.csv:4` */
  readonly #seen = new Map<string, string>()
  readonly #hashes: string[] = []
  /** where each row is, to build its case again when it runs; all that outlives the loading */
  readonly rows = new DatasetRows()

  /** `inline`: the ids of the case file's own cases, with their lines */
  constructor(caseFile: string, inline: Iterable<[id: string, line: number]>) {
    this.#caseFile = caseFile
    for (const [id, line] of inline)
      if (!this.#seen.has(id)) this.#seen.set(id, `${basename(caseFile)}:${String(line)}`)
  }

  /** SHA-256 over every dataset read, in order; undefined when the case file names none */
  get hash(): string | undefined {
    return this.#hashes.length === 0 ? undefined : hash('sha256', this.#hashes.join('\n'), 'hex')
  }

  async add(ref: DatasetRef): Promise<void> {
    const defaults = ref.header.defaults
    if (!defaults?.expect && !defaults?.assert) {
      ref.issues.push({
        path: ref.path,
        message:
          "cases from a dataset take their checks from `defaults:`; add e.g. `defaults: { expect: { contains: '{{expected}}' } }`",
      })
      return
    }
    for (const file of await this.#files(ref)) await this.#read(file, ref)
  }

  async #files({ pattern, path, issues }: DatasetRef): Promise<string[]> {
    const baseDir = dirname(this.#caseFile)
    const globs = await import('tinyglobby')
    const files = globs.isDynamicPattern(pattern)
      ? (await boundedGlob(globs, pattern, { cwd: baseDir, absolute: true, onlyFiles: true })).sort()
      : [resolve(baseDir, pattern)]
    const single = files.length === 1 ? statSync(files[0] as string, { throwIfNoEntry: false }) : undefined
    const problem =
      files.length === 0
        ? `no file matches \`${pattern}\` (relative to ${baseDir})`
        : files.length === 1 && single === undefined
          ? `dataset not found: ${files[0] as string}`
          : single !== undefined && !single.isFile()
            ? notRegularFile(files[0] as string, single)
            : files
                .filter((file) => !(extname(file) in readers))
                .map((file) => `${file}: expected a .csv or .jsonl dataset (or a case object)`)
                .join('; ')
    if (problem === '') return files
    issues.push({ path, message: problem })
    return []
  }

  async #read(file: string, ref: DatasetRef): Promise<void> {
    const read = readers[extname(file)]
    if (!read) return
    const reader = (await read())(file)
    const name = relative(dirname(this.#caseFile), file)
    const idPrefix = basename(file, extname(file))
    const columns = ref.header.columns ?? {}
    const slot = this.rows.addFile({ file, reader, columns, idPrefix, header: ref.header })
    let problems = 0
    const problem = (line: number, message: string) => {
      if (++problems <= MAX_ROW_ISSUES) this.issues.push({ file, path: '', line, column: 1, message })
    }
    let templateProblems = 0
    let rows = 0
    for await (const row of reader.rows) {
      const header = reader.columns()
      if (rows++ === 0 && header && this.#checkHeader(header, file, columns)) return
      if ('problem' in row) {
        problem(row.line, row.problem)
        continue
      }
      const mapped = rowEntry(row.values, columns, idPrefix)
      if ('problem' in mapped) {
        problem(row.line, mapped.problem)
        continue
      }
      const { id } = mapped.entry
      const first = this.#seen.get(id)
      const where = `${name}:${String(row.line)}`
      if (first !== undefined) {
        problem(row.line, `duplicate case id \`${id}\` (first at ${first}); give the rows distinct ids`)
        continue
      }
      this.#seen.set(id, where)
      const built: (PathIssue | RenderedCheck)[] = []
      const caseDef = buildCase(mapped.entry, -1, ref.header, ref.line, built)
      // settled row by row, so a large dataset holds no pending checks
      for (const issue of settleIssues(built)) {
        // a template of the case file fails on this row: located in the case file, naming the row
        if (issue.path[0] !== 'defaults') problem(row.line, issue.message)
        else if (++templateProblems <= MAX_ROW_ISSUES)
          ref.issues.push({ ...issue, message: `${issue.message} (row ${where})` })
      }
      this.rows.add(ref.cases.length, slot, row)
      ref.cases.add(caseDef, false)
    }
    if (rows === 0)
      this.issues.push({ file, path: '', message: 'no rows; add some, or take the file out of `cases:`' })
    if (problems > MAX_ROW_ISSUES)
      this.issues.push({
        file,
        path: '',
        message: `… and ${String(problems - MAX_ROW_ISSUES)} more rows with problems`,
      })
    this.#hashes.push(`${name}\t${reader.hash()}`)
  }

  /** Records the header's problems; true when the rows cannot be read as cases. */
  #checkHeader(header: readonly string[], file: string, columns: Readonly<Record<string, string>>): boolean {
    const problems = missingColumns(header, columns)
    if (columns.input === undefined && !header.includes('input'))
      problems.push(
        `no \`input\` column; name the column holding the input with \`columns: { input: <column> }\` (columns: ${header.join(', ')})`,
      )
    for (const message of problems) this.issues.push({ file, path: '', line: 1, column: 1, message })
    return problems.length > 0
  }
}
