import type { AtomicFile } from './atomic.ts'
import type { RangeReader } from './lines.ts'
import type { Redactor } from './redact.ts'
import { SortableLines, sortKeys } from './sort-json.ts'

/** Where a line of results.jsonl is. */
export interface LineAt {
  offset: number
  bytes: number
}

// Windows stay under ~1 MB, above which Node makes latin1 text an external string that the GC frees late.
/** lines read and written per step */
const WINDOW_BYTES = 512 << 10
/** lines closer than this in the file are read with one call, the bytes between them thrown away */
const GAP_BYTES = 16 << 10
/** at most this much is read per window, gaps included */
const READ_BYTES = 960 << 10

/**
 * Writes the results.jsonl lines at `entries`, in that order, as report.json's case list: each as
 * `JSON.stringify(sortKeys(JSON.parse(line)))` redacted, indented four spaces, joined with commas and newlines.
 * `parsed` is shown each line no fast path took, once parsed, and may throw to stop. Reads and writes a window of
 * lines at a time, in one buffer.
 */
export async function writeCaseLines<T extends LineAt>(
  entries: readonly T[],
  reader: RangeReader,
  out: AtomicFile,
  redact: Redactor,
  parsed: (entry: T, value: unknown) => void,
): Promise<void> {
  const lines = new CaseLines(out, redact, parsed)
  let buffer = Buffer.alloc(0)
  for (let from = 0; from < entries.length;) {
    let until = from + 1
    let bytes = (entries[from] as T).bytes
    let longest = bytes
    while (until < entries.length && bytes + (entries[until] as T).bytes <= WINDOW_BYTES) {
      const line = (entries[until] as T).bytes
      bytes += line
      longest = Math.max(longest, line)
      until++
    }
    const window = entries.slice(from, until)
    const { ranges, starts, read } = plan(window)
    // room for the copies, their separators and the scratch space of the last one
    const size = read + bytes + NEXT.length * window.length + longest
    if (buffer.length < size) buffer = Buffer.allocUnsafe(Math.max(size, 2 * buffer.length))
    for (const { offset, end, at } of ranges) {
      if (reader.readInto(buffer, at, offset, end - offset) < end - offset) {
        throw new Error(`${reader.path} changed while the report was written`)
      }
    }
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
function plan(window: readonly LineAt[]): {
  ranges: { offset: number; end: number; at: number }[]
  starts: number[]
  read: number
} {
  const byOffset = window
    .map((_, i) => i)
    .sort((a, b) => (window[a] as LineAt).offset - (window[b] as LineAt).offset)
  const ranges: { offset: number; end: number; at: number }[] = []
  const rangeOf: number[] = []
  let read = 0
  for (const i of byOffset) {
    const { offset, bytes } = window[i] as LineAt
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
 * SortableLines takes the line, else parsed and serialized. Written with a call or two per window.
 */
class CaseLines<T> {
  readonly #out: AtomicFile
  readonly #redact: Redactor
  readonly #parsed: (entry: T, value: unknown) => void
  #buffer: Buffer = Buffer.alloc(0)
  #lines: SortableLines | undefined
  /** the copies not yet in #parts are #buffer[#partStart, #length) */
  #partStart = 0
  #length = 0
  /** where each line's JSON is in the copies not yet in #parts, in pairs */
  #spans: number[] = []
  #parts: (Part | string)[] = []
  #first = true

  constructor(out: AtomicFile, redact: Redactor, parsed: (entry: T, value: unknown) => void) {
    this.#out = out
    this.#redact = redact
    this.#parsed = parsed
  }

  /** Takes the lines of a window from `buffer[0, read)`, and copies them after that; flush before the next. */
  start(buffer: Buffer, read: number): void {
    this.#buffer = buffer
    this.#lines = new SortableLines(buffer, read)
    this.#partStart = this.#length = read
  }

  add(entry: T, start: number, end: number): void {
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
    this.#parsed(entry, value)
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
