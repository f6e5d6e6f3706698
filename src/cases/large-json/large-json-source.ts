/**
 * Large-run code, boxed in: reading a JSON case file of 100,000 cases in flat memory.
 *
 * `loadSuite` hands a JSON case file over 8 MiB here. One streaming pass (json-case-scan.ts) records where each
 * case's bytes are and the line it starts on; a case is parsed from its bytes (file-slices.ts) when it is
 * validated and again when it runs, so neither the file's text nor its parsed cases are ever held whole. It serves
 * the 100,000-case rows of `npm run bench:promptfoo` (peak RSS at 100k within 1.5x of that at 10k). Everything
 * else in cases/ reads files whole and plainly; keep byte-level code in this folder.
 */
import { readFileSync } from 'node:fs'
import { FileSlices } from './file-slices.ts'
import { scanJsonCases } from './json-case-scan.ts'
import { parseJsonSource } from '../json-source.ts'
import type { SourceMap } from '../source-map.ts'

/** A syntax error in a case parsed late, worded and placed as a whole-file parse gives it. */
export class SourceSyntaxError extends Error {
  readonly line: number
  readonly column: number

  constructor(message: string, at: { line: number; column: number }) {
    super(message)
    this.name = 'SourceSyntaxError'
    this.line = at.line
    this.column = at.column
  }
}

/** Below this size a JSON case file is read and parsed whole: streaming pays off only for large case lists. */
const LARGE_JSON_BYTES = 8 << 20

/** A case file as `loadSuite` reads it: its source map and the SHA-256 of its bytes. */
export interface ReadSource {
  source: SourceMap
  hash: string
}

/**
 * A large JSON case file read without ever holding it: one streaming pass finds each case's bytes and line, and
 * `caseEntry` parses a case from its bytes when it is asked for. Undefined for a small file, or one whose top level
 * is not an object with a `cases` list (the caller parses it whole, which words any syntax error). Positions
 * deeper than a case's line, needed only to report an issue, come from a whole-file parse made then. `fd` is the
 * file open at `path`, read at explicit positions (its own position does not move); `stats` its size and mtime.
 */
export function largeJsonSource(
  path: string,
  fd: number,
  stats: { size: number; mtimeMs: number },
): ReadSource | undefined {
  if (stats.size < LARGE_JSON_BYTES) return undefined
  const scan = scanJsonCases(fd)
  if (!scan) return undefined
  const { header, ranges, lines, hash } = scan
  // a placeholder of the right length: `caseEntry` gives the items
  header.cases = new Array<unknown>(lines.length)
  const slices = new FileSlices(path, stats)
  let whole: SourceMap | undefined
  const wholeFile = (): SourceMap => (whole ??= parseJsonSource(readFileSync(path, 'utf8')))
  const source: SourceMap = {
    data: header,
    errors: [],
    locate: (at, key) => wholeFile().locate(at, key),
    line: (at) =>
      at.length === 2 && at[0] === 'cases' && typeof at[1] === 'number'
        ? (lines[at[1]] ?? 1)
        : wholeFile().line(at),
    caseEntry: (index) => {
      const text = slices.text(ranges[2 * index] ?? 0, ranges[2 * index + 1] ?? 0)
      try {
        return JSON.parse(text) as unknown
      } catch (error) {
        const [first] = wholeFile().errors
        throw new SourceSyntaxError(
          first?.message ?? (error as Error).message,
          first ?? { line: lines[index] ?? 1, column: 1 },
        )
      }
    },
  }
  return { source, hash }
}
