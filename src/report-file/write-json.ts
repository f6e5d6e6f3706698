import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { openAtomic } from '../util/atomic-file.ts'
import { gitInfo, type GitInfo } from '../util/git.ts'
import { createRedactor, envRedactor, type Redactor } from '../util/redact.ts'
import { ResultRows, writeCaseLines } from './large-run/index.ts'
import { reportHeader, type ReportInput } from './header.ts'
import type { ReportHeader } from './schema.ts'
import { packageVersion } from './version.ts'

/** Options of `writeJsonReport`. */
export interface JsonReportOptions {
  /** @default `report.json` in the run directory */
  path?: string
  /** recorded as `run.cliVersion` @default this package's version */
  cliVersion?: string
  /** where to ask git for the commit and branch @default process.cwd() */
  cwd?: string
  /** the commit and branch when already asked for (a reporter asks when the run starts, so no one waits for git) */
  git?: Promise<GitInfo>
  /** the run's redactor, for the header and rows not indexed by the run @default the environment's (`envRedactor`) */
  redactor?: Redactor
  /** read for secrets to redact instead of `process.env` (tests) */
  env?: NodeJS.ProcessEnv
}

/** The line that opens the case list; readers find the cases after it, one per line. */
export const CASES_OPENER = '  "cases": ['

/**
 * Builds `report.json` from the run's results.jsonl: the rows in report order (by suite, case id and trial) with
 * keys sorted and secrets redacted, after the header. Rows the runner indexed as it wrote them (`run.rows`) are
 * copied without parsing; otherwise the file is read once to index it. The file is written to a temporary name and
 * renamed. Returns its path.
 */
export async function writeJsonReport(run: ReportInput, options: JsonReportOptions = {}): Promise<string> {
  const git = options.git ?? gitInfo(options.cwd ?? process.cwd())
  const path = options.path ?? join(run.dir, 'report.json')
  const given = options.redactor ?? (options.env ? createRedactor({ env: options.env }) : undefined)
  const redactor = given ?? envRedactor()
  // rows the runner indexed as it appended them went through the run's redactor then: searched again only for a
  // redactor given here
  const indexed = run.rows instanceof ResultRows ? run.rows : undefined
  const rows = indexed ?? (await ResultRows.scan(run.resultsFile, suiteIndexOf(run)))
  const header = reportHeader(run, {
    cliVersion: options.cliVersion ?? packageVersion(),
    git: await git,
    judges: rows.judges.list(),
  })
  const out = await openAtomic(path)
  try {
    out.write(headerPrefix(redactor.value(header), rows.length))
    if (rows.length > 0) {
      const from = await open(run.resultsFile, 'r')
      try {
        writeCaseLines(rows, rows.order(), from.fd, out, indexed && !given ? redactedRows : redactor)
      } finally {
        await from.close()
      }
      out.write('\n  ]\n}\n')
    }
    await out.commit()
  } catch (error) {
    await out.abort()
    throw error
  }
  return path
}

/** Rows the run redacted as it wrote them: copied as they are. */
const redactedRows: Redactor = Object.assign((text: string) => text, {
  value: <T>(value: T) => value,
  mayChange: () => false,
  valueLoaded: <T>(value: T) => Promise.resolve(value),
})

/** A suite's place in the run; suites the run does not list sort after the rest. */
function suiteIndexOf(run: ReportInput): (name: string, variant: string | undefined) => number {
  const key = (name: string, variant: string | undefined): string =>
    variant === undefined ? name : `${name}\u0000${variant}`
  const order = new Map(run.suites.map((suite, i) => [key(suite.name, suite.variant), i]))
  return (name, variant) => order.get(key(name, variant)) ?? run.suites.length
}

/** The header, pretty-printed, up to and including the line that opens the case list. */
function headerPrefix(header: ReportHeader, cases: number): string {
  const text = JSON.stringify({ ...header, cases: [] }, null, 2)
  if (cases === 0) return `${text}\n`
  return `${text.slice(0, text.lastIndexOf(`${CASES_OPENER}]`))}${CASES_OPENER}\n`
}

const pending = new WeakMap<ReportInput, Promise<string>>()

/** `writeJsonReport` once per run, however many reporters need report.json: the first call writes it. */
export function ensureJsonReport(run: ReportInput, options: JsonReportOptions = {}): Promise<string> {
  let written = pending.get(run)
  if (!written) {
    written = writeJsonReport(run, options)
    pending.set(run, written)
  }
  return written
}
