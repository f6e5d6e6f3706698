import { canonicalJson } from '../../util/canonical-json.ts'
import type { AtomicFile } from '../../util/atomic-file.ts'
import { readAt } from '../../util/read-at.ts'
import type { Redactor } from '../../util/redact.ts'
import type { ResultRows } from './result-rows.ts'

// windows stay under ~1 MB, above which Node makes latin1 text an external string that the GC frees late
/** rows copied per step: the next rows in report order up to this many bytes */
const WINDOW_BYTES = 512 << 10
/** rows closer than this in the file are read with one call, the bytes between them thrown away */
const GAP_BYTES = 16 << 10
const FIRST = Buffer.from('    ')
const NEXT = Buffer.from(',\n    ')

/**
 * Writes the rows of results file `from` (a file descriptor) in `order` to `out`, as report.json's case list: each
 * row indented four spaces, joined with commas and newlines, its keys sorted and the secrets in its values
 * redacted. A canonical row is copied byte for byte unless it may hold a secret; any other is parsed and written
 * again. Works a window of
 * rows at a time, read with one call per run of rows near each other in the file, into one reused buffer.
 */
export function writeCaseLines(
  rows: ResultRows,
  order: Uint32Array,
  from: number,
  out: AtomicFile,
  redact: Redactor,
): void {
  let buffer = Buffer.alloc(0)
  for (let first = 0; first < order.length;) {
    let end = first + 1
    let bytes = rows.bytes(order[first] as number)
    while (end < order.length && bytes + rows.bytes(order[end] as number) <= WINDOW_BYTES)
      bytes += rows.bytes(order[end++] as number)
    const window = order.subarray(first, end)
    const { ranges, starts, size } = readPlan(rows, window)
    if (buffer.length < size) buffer = Buffer.allocUnsafe(Math.max(size, 2 * buffer.length))
    for (const range of ranges) readRange(from, buffer, range)
    const clean = !redact.mayChange(buffer.subarray(0, size))
    window.forEach((row, i) => {
      out.write(first + i === 0 ? FIRST : NEXT)
      const start = starts[i] as number
      const line = buffer.subarray(start, start + rows.bytes(row))
      if (rows.canonical(row) && clean) out.write(line)
      else out.write(canonicalJson(redact.value(JSON.parse(line.toString('utf8')))))
    })
    first = end
  }
}

interface Range {
  /** where in the file */
  offset: number
  end: number
  /** where in the buffer */
  at: number
}

/** Where to read the rows of `window`: runs of rows near each other in the file, one read each, and each row's start in the buffer. */
function readPlan(
  rows: ResultRows,
  window: Uint32Array,
): { ranges: Range[]; starts: number[]; size: number } {
  const byOffset = inFileOrder(rows, window)
  const ranges: Range[] = []
  const starts: number[] = []
  let size = 0
  for (const i of byOffset) {
    const row = window[i] as number
    const offset = rows.offset(row)
    const end = offset + rows.bytes(row)
    const last = ranges.at(-1)
    // rows never overlap: each starts at or after the end of the one before it in the file
    if (last && offset - last.end <= GAP_BYTES) {
      size += end - last.end
      last.end = end
    } else {
      ranges.push({ offset, end, at: size })
      size += end - offset
    }
    const range = ranges.at(-1) as Range
    starts[i] = range.at + offset - range.offset
  }
  return { ranges, starts, size }
}

/**
 * The indices of `window` by their rows' place in the file. Sorted as numbers, with no comparator: each key is a
 * row's offset times a power of two above the window's length, plus the row's index in the window.
 */
function inFileOrder(rows: ResultRows, window: Uint32Array): Float64Array {
  const scale = 2 ** Math.ceil(Math.log2(window.length + 1))
  const keys = new Float64Array(window.length)
  for (let i = 0; i < window.length; i++) keys[i] = rows.offset(window[i] as number) * scale + i
  keys.sort()
  for (let i = 0; i < keys.length; i++) keys[i] = (keys[i] as number) % scale
  return keys
}

function readRange(fd: number, buffer: Buffer, { offset, end, at }: Range): void {
  if (readAt(fd, buffer, at, end - offset, offset) < end - offset)
    throw new Error('the results file changed while the report was written')
}
