import { FileSlices } from './file-slices.ts'
import { scanJsonCases } from './json-case-scan.ts'
import { parseJsonSource } from '../json-source.ts'
import { partsSourceMap, SourceSyntaxError, wholeFileParse, type ReadSource } from './large-source.ts'

/**
 * A large JSON case file read without ever holding it: one streaming pass finds each case's bytes and line, and
 * `caseEntry` parses a case from its bytes when it is asked for. Undefined for a file whose top level
 * is not an object with a `cases` list (the caller parses it whole, which words any syntax error). Positions
 * deeper than a case's line, needed only to report an issue, come from a whole-file parse made then. `fd` is the
 * file open at `path`, read at explicit positions (its own position does not move); `stats` its size and mtime.
 */
export function largeJsonSource(
  path: string,
  fd: number,
  stats: { size: number; mtimeMs: number },
): ReadSource | undefined {
  const scan = scanJsonCases(fd)
  if (!scan) return undefined
  const { header, ranges, lines, hash } = scan
  // a placeholder of the right length: `caseEntry` gives the items
  header.cases = new Array<unknown>(lines.length)
  const slices = new FileSlices(path, stats)
  const wholeFile = wholeFileParse(path, parseJsonSource)
  const source = partsSourceMap(header, lines, wholeFile, (index) => {
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
  })
  return { source, hash }
}
