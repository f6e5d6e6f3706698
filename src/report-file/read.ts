import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { ConfigError } from '../errors.ts'
import { createRedactor, envRedactor, type Redactor } from '../util/redact.ts'
import { readLineBatches, readLines } from './lines.ts'
import type { ReportCase, ReportHeader } from './schema.ts'
import { REPORT_SCHEMA_VERSION } from './version.ts'
import { CASES_OPENER } from './write-json.ts'

/** A report as renderers read it: the small header at once, the cases as a stream in report order. */
export interface ReportSource {
  path: string
  header: ReportHeader
  /**
   * The cases in report order, a batch at a time (at most 256 of those on one 1 MiB chunk of report.json; a report
   * parsed whole is one batch), never an empty batch: a renderer that loops over each batch pays one asynchronous
   * step per batch rather than per case. Batches are read-only, shared with the other renderers of the same reading.
   */
  batches(): AsyncIterable<readonly ReportCase[]> | Iterable<readonly ReportCase[]>
  /** The same cases one at a time, for a caller that does not mind a step per case. */
  cases(): AsyncIterable<ReportCase> | Iterable<ReportCase>
}

/** the most cases in one batch of a streamed report; a 1 MiB chunk of short lines holds some 1,500 */
const BATCH_CASES = 256

/** A ReportSource read through `batches`; its `cases()` takes them one at a time. */
export function sourceOfBatches(
  path: string,
  header: ReportHeader,
  batches: () => AsyncIterable<readonly ReportCase[]> | Iterable<readonly ReportCase[]>,
): ReportSource {
  return { path, header, batches, cases: () => oneAtATime(batches()) }
}

async function* oneAtATime(
  batches: AsyncIterable<readonly ReportCase[]> | Iterable<readonly ReportCase[]>,
): AsyncGenerator<ReportCase> {
  for await (const batch of batches) yield* batch
}

export interface OpenReportOptions {
  /** check the header and every case against the schema (off for a report this process just wrote) @default true */
  validate?: boolean
  /** read for secrets to redact @default process.env (`envRedactor`) */
  env?: NodeJS.ProcessEnv
  /**
   * redact secrets on the way in @default true; off for the report this process just wrote with the run's redactor
   * (its rows went through it as they were recorded, its header as it was written)
   */
  redact?: boolean
}

/** A redactor that changes nothing: for a report redacted as it was written. */
const asWritten: Pick<Redactor, 'value'> = { value: (value) => value }

/**
 * Opens a JSON report. A report in the layout `writeJsonReport` writes (one case per line) streams its cases;
 * any other valid layout is parsed whole. Secrets are redacted again on the way in. Throws a ConfigError naming
 * the file and the first problems when it is not a report.
 */
export async function openReport(path: string, options: OpenReportOptions = {}): Promise<ReportSource> {
  const redact =
    options.redact === false ? asWritten : options.env ? createRedactor({ env: options.env }) : envRedactor()
  // zod and the schemas load only to validate: renderers of the report this process just wrote skip both
  const checks = (options.validate ?? true) ? await loadSchemas() : undefined
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
  if (!streamed) return parseWhole(path, redact, checks?.report)
  const header = check(
    path,
    checks?.header,
    redact.value(parseJson(path, `${headerLines.join('\n')}\n"cases": []}`)),
  )
  return sourceOfBatches(path, header, () => streamedBatches(path, redact, checks?.caseResult))
}

/**
 * The cases of a report in writeJsonReport's layout, a batch per chunk `readLineBatches` reads and at most
 * `BATCH_CASES` a batch: the batches renderers hold stay a few hundred parsed cases, however short the lines.
 */
async function* streamedBatches(
  path: string,
  redact: Pick<Redactor, 'value'>,
  schema: Schemas['caseResult'] | undefined,
): AsyncGenerator<ReportCase[]> {
  let inCases = false
  let index = 0
  for await (const lines of readLineBatches(path)) {
    let batch: ReportCase[] = []
    let ended = false
    try {
      for (const { text } of lines) {
        if (!inCases) {
          inCases = text === CASES_OPENER
          continue
        }
        ended = text.trim() === ']'
        if (ended) break
        batch.push(check(path, schema, redact.value(parseJson(path, caseText(text))), `cases[${index++}]`))
        if (batch.length === BATCH_CASES) {
          yield batch
          batch = []
        }
      }
    } catch (error) {
      // the cases before a bad one are read, as one at a time they would be
      if (batch.length > 0) yield batch
      throw error
    }
    if (batch.length > 0) yield batch
    if (ended) return
  }
}

type Schemas = Awaited<ReturnType<typeof loadSchemas>>

async function loadSchemas() {
  const { reportSchema } = await import('./schema.ts')
  const { caseResultSchema } = await import('./case-schema.ts')
  return { report: reportSchema, header: reportSchema.omit({ cases: true }), caseResult: caseResultSchema }
}

async function parseWhole(
  path: string,
  redact: Pick<Redactor, 'value'>,
  schema: Schemas['report'] | undefined,
): Promise<ReportSource> {
  const report = check(path, schema, redact.value(parseJson(path, await readFile(path, 'utf8'))))
  const { cases, ...header } = report
  return {
    path,
    header,
    batches: () => (cases.length === 0 ? [] : [cases]),
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

/** Validates `value` against `schema`; without a schema (`validate: false`) it is trusted as is. */
function check<T extends z.ZodType>(
  path: string,
  schema: T | undefined,
  value: unknown,
  at = '',
): z.output<T> {
  if (schema === undefined) return value as z.output<T>
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
