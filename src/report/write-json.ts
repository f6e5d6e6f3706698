import { join } from 'node:path'
import type { CaseResult } from '../runner/result.ts'
import { openAtomic } from './atomic.ts'
import { gitInfo } from '../util/git.ts'
import { peekCaseKey } from './case-key.ts'
import { writeCaseLines, type LineAt } from './case-lines.ts'
import { JudgeSet, reportHeader, type ReportInput } from './header.ts'
import { forEachLine, RangeReader } from './lines.ts'
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
interface Entry extends LineAt {
  suite: number
  caseId: string
  trial: number
  /** suite, caseId and trial were read off the line's start, not parsed: right when SortableLines takes the line */
  peeked: boolean
}

/** The line that opens the case list; readers find the cases after it, one per line. */
export const CASES_OPENER = '  "cases": ['

/**
 * Builds `report.json` from the run's results.jsonl by streaming: one pass indexes the lines (a few numbers per
 * case), a second copies them in sorted order with keys sorted and secrets redacted. The file is written to a
 * temporary name and renamed. Returns its path.
 */
export async function writeJsonReport(run: ReportInput, options: JsonReportOptions = {}): Promise<string> {
  const git = gitInfo(options.cwd ?? process.cwd())
  try {
    return await write(run, options, git, true)
  } catch (error) {
    if (!(error instanceof PeekedWrong)) throw error
    return write(run, options, git, false)
  }
}

/** A line pass 1 did not parse sorts, or names judges, otherwise than it guessed: start again, parsing. */
class PeekedWrong extends Error {}

async function write(
  run: ReportInput,
  options: JsonReportOptions,
  git: ReturnType<typeof gitInfo>,
  peek: boolean,
): Promise<string> {
  const path = options.path ?? join(run.dir, 'report.json')
  const redact = createRedactor(options.env)
  const index = await indexResults(run, peek)
  const header = reportHeader(run, {
    cliVersion: options.cliVersion ?? packageVersion(),
    git: await git,
    judges: index.judges.list(),
  })
  const { entries } = index
  const out = await openAtomic(path)
  const reader = entries.length > 0 ? await RangeReader.open(run.resultsFile) : undefined
  try {
    await out.write(redact(headerPrefix(header, entries.length)))
    if (reader) await writeCaseLines(entries, reader, out, redact, checkPeeked(index))
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

interface ResultsIndex {
  /** in report order */
  entries: Entry[]
  judges: JudgeSet
  suiteIndex(name: string): number
}

/**
 * Pass 1: where each case line is, in report order, and the judges its verdicts name. With `peek`, a line that
 * names no judge is not parsed: its sort key is read off its start.
 */
async function indexResults(run: ReportInput, peek: boolean): Promise<ResultsIndex> {
  const suiteOrder = new Map(run.suites.map((suite, i) => [suite.name, i]))
  const suiteIndex = (name: string): number => suiteOrder.get(name) ?? run.suites.length
  const judges = new JudgeSet()
  const entries: Entry[] = []
  const namesJudge = judgeFinder()
  await forEachLine(run.resultsFile, (buffer, start, end, offset) => {
    const bytes = end - start
    const key = peek && !namesJudge(buffer, start, end) ? peekCaseKey(buffer, start, end) : undefined
    if (key) {
      const { caseId, trial } = key
      entries.push({ suite: suiteIndex(key.suite), caseId, trial, offset, bytes, peeked: true })
      return
    }
    const text = buffer.toString('utf8', start, end)
    if (text.trim() === '') return
    const result = JSON.parse(text) as CaseResult
    if (result.status !== 'skipped') judges.add(result.verdicts)
    const { caseId, trial } = result
    entries.push({ suite: suiteIndex(result.suite), caseId, trial, offset, bytes, peeked: false })
  })
  entries.sort(compareEntries)
  return { entries, judges, suiteIndex }
}

function compareEntries(a: Entry, b: Entry): number {
  if (a.suite !== b.suite) return a.suite - b.suite
  if (a.caseId !== b.caseId) return a.caseId < b.caseId ? -1 : 1
  return a.trial - b.trial
}

const JUDGE_MARKS = ['judgeModel', 'specHash'].map((mark) => Buffer.from(mark))

/** Whether a line holds a judge's name, searching each buffer of forEachLine once rather than each line. */
function judgeFinder(): (buffer: Buffer, start: number, end: number) => boolean {
  let searched: Buffer | undefined
  let next = -1
  return (buffer, start, end) => {
    if (buffer !== searched || (next !== -1 && next < start)) {
      searched = buffer
      next = -1
      for (const mark of JUDGE_MARKS) {
        const at = buffer.indexOf(mark, start)
        if (at !== -1 && (next === -1 || at < next)) next = at
      }
    }
    return next !== -1 && next < end
  }
}

/** Checks a peeked line no fast path took, once parsed; throws PeekedWrong when pass 1 guessed wrong. */
function checkPeeked(index: ResultsIndex): (entry: Entry, value: unknown) => void {
  return (entry, value) => {
    if (!entry.peeked) return
    const result = value as CaseResult
    const judges = index.judges.list().length
    if (result.status !== 'skipped') index.judges.add(result.verdicts)
    if (
      index.suiteIndex(result.suite) !== entry.suite ||
      result.caseId !== entry.caseId ||
      result.trial !== entry.trial ||
      index.judges.list().length !== judges
    ) {
      throw new PeekedWrong()
    }
  }
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
