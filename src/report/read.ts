import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { ConfigError } from '../errors.ts'
import { caseResultSchema } from './case-schema.ts'
import { readLines } from './lines.ts'
import { createRedactor, type Redactor } from './redact.ts'
import { REPORT_SCHEMA_VERSION, reportSchema, type ReportCase, type ReportHeader } from './schema.ts'
import { CASES_OPENER } from './write-json.ts'

/** A report as renderers read it: the small header at once, the cases as a stream in report order. */
export interface ReportSource {
  path: string
  header: ReportHeader
  cases(): AsyncIterable<ReportCase> | Iterable<ReportCase>
}

export interface OpenReportOptions {
  /** check the header and every case against the schema (off for a report this process just wrote) @default true */
  validate?: boolean
  /** @default process.env */
  env?: NodeJS.ProcessEnv
}

const headerSchema = reportSchema.omit({ cases: true })

/**
 * Opens a JSON report. A report in the layout `writeJsonReport` writes (one case per line) streams its cases;
 * any other valid layout is parsed whole. Secrets are redacted again on the way in. Throws a ConfigError naming
 * the file and the first problems when it is not a report.
 */
export async function openReport(path: string, options: OpenReportOptions = {}): Promise<ReportSource> {
  const redact = createRedactor(options.env)
  const validate = options.validate ?? true
  const headerLines: string[] = []
  let opened = false
  let streamed = false
  for await (const line of readLines(path)) {
    if (opened) {
      // one whole case per line (or none): the layout writeJsonReport writes
      streamed = line.text.trim() === ']' || parsesAsJson(caseText(line.text))
      break
    }
    if (line.text === CASES_OPENER) opened = true
    else headerLines.push(line.text)
  }
  if (!streamed) return parseWhole(path, redact, validate)
  const header = check(
    path,
    headerSchema,
    parseJson(path, redact(`${headerLines.join('\n')}\n"cases": []}`)),
    validate,
  )
  return {
    path,
    header,
    async *cases() {
      let inCases = false
      let index = 0
      for await (const line of readLines(path)) {
        if (!inCases) {
          inCases = line.text === CASES_OPENER
          continue
        }
        if (line.text.trim() === ']') return
        const value = parseJson(path, redact(caseText(line.text)))
        yield check(path, caseResultSchema, value, validate, `cases[${index++}]`)
      }
    },
  }
}

async function parseWhole(path: string, redact: Redactor, validate: boolean): Promise<ReportSource> {
  const report = check(path, reportSchema, parseJson(path, redact(await readFile(path, 'utf8'))), validate)
  const { cases, ...header } = report
  return {
    path,
    header,
    cases: () => cases,
  }
}

function caseText(line: string): string {
  const text = line.trim()
  return text.endsWith(',') ? text.slice(0, -1) : text
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new ConfigError(`${path}: not a JSON report (${(error as Error).message}).`, { cause: error })
  }
}

function check<T extends z.ZodType>(
  path: string,
  schema: T,
  value: unknown,
  validate: boolean,
  at = '',
): z.output<T> {
  if (!validate) return value as z.output<T>
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion
  if (at === '' && typeof version === 'number' && version > REPORT_SCHEMA_VERSION) {
    throw new ConfigError(
      `${path}: report schemaVersion ${version} is newer than this evals reads (${REPORT_SCHEMA_VERSION}); upgrade evals.`,
    )
  }
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.slice(0, 5).map((issue) => {
    const where = [at, ...issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))]
      .join('')
      .replace(/^\./, '')
    return `  ${where || '(root)'}: ${issue.message}`
  })
  throw new ConfigError(`${path}: not a valid evals report:\n${issues.join('\n')}`)
}
