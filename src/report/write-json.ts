import { join } from 'node:path'
import type { CaseResult } from '../runner/result.ts'
import { openAtomic, type AtomicFile } from './atomic.ts'
import { gitInfo } from '../util/git.ts'
import { peekCaseKey } from './case-key.ts'
import { JudgeSet, reportHeader, type ReportInput } from './header.ts'
import { forEachLine, RangeReader, type Chunk } from './lines.ts'
import { createRedactor, type Redactor } from './redact.ts'
import type { ReportHeader } from './schema.ts'
import { SortableLines, sortKeys } from './sort-json.ts'
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
  /** suite, caseId and trial were read off the line's start, not parsed: right when copySorted takes the line */
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
    if (reader) await writeCases(entries, reader, new CaseLines(out, redact, checkPeeked(index)))
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
  await forEachLine(run.resultsFile, (chunk, start, end, offset) => {
    const bytes = end - start
    const key = peek && !namesJudge(chunk, start, end) ? peekCaseKey(chunk, start, end) : undefined
    if (key) {
      const { caseId, trial } = key
      entries.push({ suite: suiteIndex(key.suite), caseId, trial, offset, bytes, peeked: true })
      return
    }
    const text = chunk.bytes.toString('utf8', start, end)
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

const JUDGE_MARKS = ['judgeModel', 'specHash']

/** Whether a line holds a judge's name, searching each chunk of forEachLine once rather than each line. */
function judgeFinder(): (chunk: Chunk, start: number, end: number) => boolean {
  let searched: Chunk | undefined
  let next = -1
  return (chunk, start, end) => {
    if (chunk !== searched || (next !== -1 && next < start)) {
      searched = chunk
      next = -1
      for (const mark of JUDGE_MARKS) {
        const at = chunk.latin1.indexOf(mark, start)
        if (at !== -1 && (next === -1 || at < next)) next = at
      }
    }
    return next !== -1 && next < end
  }
}

/** Checks a peeked line that copySorted refused, once parsed; throws PeekedWrong when pass 1 guessed wrong. */
function checkPeeked(index: ResultsIndex): (entry: Entry, value: unknown) => void {
  return (entry, value) => {
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

// Windows stay under ~1 MB, above which Node makes latin1 text an external string that the GC frees late.
/** lines read and written per step */
const WINDOW_BYTES = 512 << 10
/** lines closer than this in the file are read with one call, the bytes between them thrown away */
const GAP_BYTES = 64 << 10
/** at most this much is read per window, gaps included */
const READ_BYTES = 960 << 10

/** Pass 2: the case lines in report order, a window of them at a time, all in one buffer. */
async function writeCases(entries: readonly Entry[], reader: RangeReader, lines: CaseLines): Promise<void> {
  let buffer = Buffer.alloc(0)
  for (let from = 0; from < entries.length;) {
    let until = from + 1
    let bytes = (entries[from] as Entry).bytes
    let longest = bytes
    while (until < entries.length && bytes + (entries[until] as Entry).bytes <= WINDOW_BYTES) {
      const line = (entries[until] as Entry).bytes
      bytes += line
      longest = Math.max(longest, line)
      until++
    }
    const window = entries.slice(from, until)
    const { ranges, starts, read } = plan(window)
    // room for the copies, their separators and the scratch space of the last one
    const size = read + bytes + NEXT.length * window.length + longest
    if (buffer.length < size) buffer = Buffer.allocUnsafe(Math.max(size, 2 * buffer.length))
    await Promise.all(
      ranges.map(async ({ offset, end, at }) => {
        if ((await reader.readInto(buffer, at, offset, end - offset)) < end - offset) {
          throw new Error(`${reader.path} changed while the report was written`)
        }
      }),
    )
    lines.start(buffer, read)
    window.forEach((entry, i) => {
      const start = starts[i] as number
      lines.add(entry, start, start + entry.bytes)
    })
    await lines.flush()
    from = until
  }
}

/** Where to read the lines of `window` to, one after another, with one read per run of lines near each other. */
function plan(window: readonly Entry[]): {
  ranges: { offset: number; end: number; at: number }[]
  starts: number[]
  read: number
} {
  const byOffset = window
    .map((_, i) => i)
    .sort((a, b) => (window[a] as Entry).offset - (window[b] as Entry).offset)
  const ranges: { offset: number; end: number; at: number }[] = []
  const rangeOf: number[] = []
  let read = 0
  for (const i of byOffset) {
    const { offset, bytes } = window[i] as Entry
    const range = ranges[ranges.length - 1]
    const gap = range ? offset - range.end : Infinity
    if (range && gap <= GAP_BYTES && read + gap + bytes <= READ_BYTES) {
      range.end = offset + bytes
      read += gap + bytes
    } else {
      ranges.push({ offset, end: offset + bytes, at: read })
      read += bytes
    }
    rangeOf[i] = ranges.length - 1
  }
  const starts = window.map((entry, i) => {
    const range = ranges[rangeOf[i] as number] as { offset: number; at: number }
    return range.at + entry.offset - range.offset
  })
  return { ranges, starts, read }
}

const FIRST = '    '
const NEXT = ',\n    '
const FIRST_BYTES = Buffer.from(FIRST)
const NEXT_BYTES = Buffer.from(NEXT)

/** Bytes ready to write, and where each case line's JSON is in them (pairs of offsets). */
interface Part {
  bytes: Buffer
  lines: number[]
}

/**
 * The case lines of the report, each with its keys sorted: copied byte for byte within the window's buffer when
 * copySorted takes the line, else parsed and serialized. Written with a call or two per window.
 */
class CaseLines {
  readonly #out: AtomicFile
  readonly #redact: Redactor
  readonly #checkPeeked: (entry: Entry, value: unknown) => void
  #buffer: Buffer = Buffer.alloc(0)
  #lines: SortableLines | undefined
  /** the copies not yet in #parts are #buffer[#partStart, #length) */
  #partStart = 0
  #length = 0
  /** where each line's JSON is in the copies not yet in #parts, in pairs */
  #spans: number[] = []
  #parts: (Part | string)[] = []
  #first = true

  constructor(out: AtomicFile, redact: Redactor, checkPeeked: (entry: Entry, value: unknown) => void) {
    this.#out = out
    this.#redact = redact
    this.#checkPeeked = checkPeeked
  }

  /** Takes the lines of a window from `buffer[0, read)`, and copies them after that; flush before the next. */
  start(buffer: Buffer, read: number): void {
    this.#buffer = buffer
    this.#lines = new SortableLines(buffer, read)
    this.#partStart = this.#length = read
  }

  add(entry: Entry, start: number, end: number): void {
    const separator = this.#first ? FIRST_BYTES : NEXT_BYTES
    this.#first = false
    const at = this.#length + separator.length
    if (this.#lines?.copySorted(start, end, at)) {
      this.#buffer.set(separator, this.#length)
      this.#spans.push(at - this.#partStart, at - this.#partStart + end - start)
      this.#length = at + end - start
      return
    }
    const value: unknown = JSON.parse(this.#buffer.toString('utf8', start, end))
    if (entry.peeked) this.#checkPeeked(entry, value)
    this.#endPart()
    this.#parts.push(`${separator.toString()}${this.#redact(JSON.stringify(sortKeys(value)))}`)
  }

  async flush(): Promise<void> {
    this.#endPart()
    const parts = this.#parts
    this.#parts = []
    for (const part of parts) await this.#out.write(typeof part === 'string' ? part : this.#redacted(part))
  }

  #endPart(): void {
    if (this.#length > this.#partStart) {
      this.#parts.push({ bytes: this.#buffer.subarray(this.#partStart, this.#length), lines: this.#spans })
    }
    this.#partStart = this.#length
    this.#spans = []
  }

  /** The bytes as they are, unless they may hold a secret: then as text, redacted line by line. */
  #redacted({ bytes, lines }: Part): Buffer | string {
    if (!this.#redact.mayChange(bytes)) return bytes
    let text = ''
    let copied = 0
    for (let i = 0; i < lines.length; i += 2) {
      const start = lines[i] as number
      const end = lines[i + 1] as number
      text += bytes.toString('utf8', copied, start) + this.#redact(bytes.toString('utf8', start, end))
      copied = end
    }
    return text + bytes.toString('utf8', copied)
  }
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
