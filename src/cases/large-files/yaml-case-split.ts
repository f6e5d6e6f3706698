import { TypedList } from '../../util/typed-list.ts'

/** Where a YAML case file's `cases:` entries are, found by looking at the start of each line. */
export interface YamlCaseSplit {
  /** the file with its `cases:` list replaced by `cases: []` */
  header: string
  /** where each entry of `cases:` is in the file's bytes, as start and end pairs: whole lines, from its `- ` */
  ranges: Float64Array
  /** the 1-based line of each entry's `- ` */
  lines: Uint32Array
}

const [SPACE, TAB, NEWLINE, RETURN, HASH, DASH] = [32, 9, 10, 13, 35, 45]

/** the root key that opens the list, alone on its line but for a comment */
const CASES_KEY = /^cases:[ \t]*(?:#.*)?$/
/** a line at column 0 that makes the file more than one plain document */
const DOCUMENT_MARKER = /^(?:---|\.\.\.|%)/

/**
 * Splits the bytes of a YAML case file into its header and the entries of its root `cases:` block list, by
 * indentation alone: an entry starts at a `- ` on the list's column and runs until the next one, and the list
 * ends at the next line on column 0. Undefined for any file whose layout is less plain (no such list, tabs in
 * indentation, a flow list, several documents, an entry-less `cases:`): the caller parses those whole. The split is
 * only a proposal; each piece is then parsed on its own, and a piece that does not parse as exactly one entry sends
 * the caller back to the whole file.
 */
export function splitYamlCases(bytes: Buffer): YamlCaseSplit | undefined {
  const starts = new TypedList(Float64Array, 1024)
  const lines = new TypedList(Uint32Array, 1024)
  let casesLine: { start: number; end: number } | undefined
  let listColumn = -1
  let listEnd = -1
  let sawContent = false
  let lineNumber = 0
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(NEWLINE, start)
    const end = newline === -1 ? bytes.length : newline
    const next = newline === -1 ? bytes.length : newline + 1
    lineNumber++
    let column = 0
    while (bytes[start + column] === SPACE) column++
    const first = start + column < end ? bytes[start + column] : RETURN
    if (first === TAB) return undefined
    const blank = first === RETURN || first === HASH
    if (!blank && column === 0) {
      const text = bytes.toString('latin1', start, Math.min(end, start + 80)).trimEnd()
      const leadingMarker = !sawContent && casesLine === undefined && text === '---'
      if (DOCUMENT_MARKER.test(text) && !leadingMarker) return undefined
      sawContent = true
    }
    if (casesLine === undefined) {
      if (!blank && column === 0 && CASES_KEY.test(bytes.toString('utf8', start, end).trimEnd()))
        casesLine = { start, end: next }
    } else if (listEnd === -1 && !blank) {
      const entry = first === DASH && (start + column + 1 >= end || isSpace(bytes[start + column + 1]))
      if (listColumn === -1) {
        if (!entry) return undefined
        listColumn = column
      }
      if (entry && column === listColumn) {
        starts.push(start)
        lines.push(lineNumber)
      } else if (column <= listColumn) {
        if (column !== 0) return undefined
        listEnd = start
      }
    }
    start = next
  }
  if (casesLine === undefined || starts.length === 0) return undefined
  if (listEnd === -1) listEnd = bytes.length
  const ranges = new Float64Array(2 * starts.length)
  for (let index = 0; index < starts.length; index++) {
    ranges[2 * index] = starts.get(index)
    ranges[2 * index + 1] = index + 1 < starts.length ? starts.get(index + 1) : listEnd
  }
  const header = `${bytes.toString('utf8', 0, casesLine.start)}cases: []\n${bytes.toString('utf8', listEnd)}`
  return { header, ranges, lines: lines.view() }
}

function isSpace(byte: number | undefined): boolean {
  return byte === SPACE || byte === RETURN || byte === TAB
}
