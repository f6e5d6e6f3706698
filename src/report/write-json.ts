import { join } from 'node:path'
import type { CaseResult } from '../runner/result.ts'
import { openAtomic } from './atomic.ts'
import { gitInfo } from '../util/git.ts'
import { JudgeSet, reportHeader, type ReportInput } from './header.ts'
import { RangeReader, readLines } from './lines.ts'
import { createRedactor } from './redact.ts'
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
  /** secrets in OPENAI_API_KEY / ANTHROPIC_API_KEY are redacted @default process.env */
  env?: NodeJS.ProcessEnv
}

/** Where a case line sits in results.jsonl, and how it sorts. */
interface Entry {
  suite: number
  caseId: string
  trial: number
  offset: number
  bytes: number
}

/** The line that opens the case list; readers find the cases after it, one per line. */
export const CASES_OPENER = '  "cases": ['

/**
 * Builds `report.json` from the run's results.jsonl by streaming: one pass indexes the lines (a few numbers per
 * case), a second copies them in sorted order with keys sorted and secrets redacted. The file is written to a
 * temporary name and renamed. Returns its path.
 */
export async function writeJsonReport(run: ReportInput, options: JsonReportOptions = {}): Promise<string> {
  const path = options.path ?? join(run.dir, 'report.json')
  const redact = createRedactor(options.env)
  const suiteOrder = new Map(run.suites.map((suite, i) => [suite.name, i]))
  const judges = new JudgeSet()
  const entries: Entry[] = []
  for await (const line of readLines(run.resultsFile)) {
    if (line.text.trim() === '') continue
    const result = JSON.parse(line.text) as CaseResult
    if (result.status !== 'skipped') judges.add(result.verdicts)
    entries.push({
      suite: suiteOrder.get(result.suite) ?? run.suites.length,
      caseId: result.caseId,
      trial: result.trial,
      offset: line.offset,
      bytes: line.bytes,
    })
  }
  entries.sort(compareEntries)
  const header = reportHeader(run, {
    cliVersion: options.cliVersion ?? packageVersion(),
    git: await gitInfo(options.cwd ?? process.cwd()),
    judges: judges.list(),
  })
  const out = await openAtomic(path)
  const reader = entries.length > 0 ? await RangeReader.open(run.resultsFile) : undefined
  try {
    await out.write(redact(headerPrefix(header, entries.length)))
    let first = true
    for (const batch of adjacentBatches(entries)) {
      const start = (batch[0] as Entry).offset
      const last = batch[batch.length - 1] as Entry
      const bytes = await (reader as RangeReader).read(start, last.offset + last.bytes - start)
      for (const entry of batch) {
        const text = bytes.toString('utf8', entry.offset - start, entry.offset - start + entry.bytes)
        const line = JSON.stringify(sortKeys(JSON.parse(text)))
        await out.write(`${first ? '' : ',\n'}    ${redact(line)}`)
        first = false
      }
    }
    await out.write(entries.length > 0 ? '\n  ]\n}\n' : '')
    await out.commit()
  } catch (error) {
    await out.abort()
    throw error
  } finally {
    await reader?.close()
  }
  return path
}

/** The header, pretty-printed, up to and including the line that opens the case list. */
function headerPrefix(header: ReportHeader, cases: number): string {
  const text = JSON.stringify({ ...header, cases: [] }, null, 2)
  if (cases === 0) return `${text}\n`
  return `${text.slice(0, text.lastIndexOf(`${CASES_OPENER}]`))}${CASES_OPENER}\n`
}

const BATCH_BYTES = 1 << 20

/** Runs of entries whose lines follow each other in the file, read with one call (up to ~1 MiB each). */
function* adjacentBatches(entries: readonly Entry[]): Generator<Entry[]> {
  let batch: Entry[] = []
  let end = -1
  let size = 0
  for (const entry of entries) {
    if (batch.length > 0 && (entry.offset !== end || size + entry.bytes > BATCH_BYTES)) {
      yield batch
      batch = []
      size = 0
    }
    batch.push(entry)
    end = entry.offset + entry.bytes + 1
    size += entry.bytes + 1
  }
  if (batch.length > 0) yield batch
}

function compareEntries(a: Entry, b: Entry): number {
  if (a.suite !== b.suite) return a.suite - b.suite
  if (a.caseId !== b.caseId) return a.caseId < b.caseId ? -1 : 1
  return a.trial - b.trial
}

/** A copy with object keys in code-point order at every depth, so reports diff well. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key])
  return out
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
