import { hash } from 'node:crypto'
import { ConfigError } from '../../errors.ts'
import { readAt } from '../../util/read-at.ts'
import { parseYamlSource, quickSource } from '../yaml-source.ts'
import { FileSlices } from './file-slices.ts'
import { partsSourceMap, SourceSyntaxError, wholeFileParse, type ReadSource } from './large-source.ts'
import { splitYamlCases } from './yaml-case-split.ts'

/** entries parsed at once: a js-yaml call costs far more to set up than one entry costs to parse */
const BATCH = 256

/**
 * A large YAML case file read without holding its parsed cases: its bytes are read whole and split once into the
 * header and the entries of `cases:` (yaml-case-split.ts), then dropped, and `caseEntry` parses an entry from its
 * bytes when asked for (with the entries around it), on the fast path of yaml-source.ts. For a file the split does not
 * fit, the bytes read, which the caller parses whole; undefined when fewer than `stats.size` bytes could be read (the
 * file changed since: the caller reads it again). An entry that parses only whole (an alias to an anchor elsewhere, a
 * tag, a syntax error) is taken from a whole-file parse made then, so its value and any error are exactly what a
 * small file gets.
 */
export function largeYamlSource(
  path: string,
  fd: number,
  stats: { size: number; mtimeMs: number },
): ReadSource | Buffer | undefined {
  const bytes = Buffer.allocUnsafe(stats.size)
  if (readAt(fd, bytes, 0, stats.size, 0) !== stats.size) return undefined
  const split = splitYamlCases(bytes)
  if (!split) return bytes
  const top = parseYamlSource(split.header)
  const data = top.data as { cases?: unknown } | null
  if (top.errors.length > 0 || typeof data !== 'object' || data === null || Array.isArray(data)) return bytes
  const { ranges, lines: dashLines } = split
  data.cases = new Array<unknown>(dashLines.length)
  const caseLines = Uint32Array.from(dashLines)
  const slices = new FileSlices(path, stats)
  const wholeFile = wholeFileParse(path, parseYamlSource)
  const fromWholeFile = (index: number): unknown => {
    const file = wholeFile()
    const [first] = file.errors
    if (first) throw new SourceSyntaxError(first.message, first)
    const cases = (file.data as { cases?: unknown } | null)?.cases
    if (!Array.isArray(cases) || cases.length !== dashLines.length)
      throw new ConfigError(
        `${path}: its \`cases:\` list reads differently whole than entry by entry. To load it, split it into ` +
          'case files under 8 MiB (those are read whole), and please report this file.',
      )
    caseLines[index] = file.line(['cases', index])
    return cases[index]
  }
  let batch: { first: number; entries: unknown[] } | undefined
  const readBatch = (index: number): { first: number; entries: unknown[] } => {
    const first = index - (index % BATCH)
    const count = Math.min(BATCH, dashLines.length - first)
    const text = slices.text(ranges[2 * first] ?? 0, ranges[2 * (first + count) - 1] ?? 0)
    // the entries as the items of a `cases:` list, so the fast path finds their lines: the list's is line 1
    const piece = quickSource(`cases:\n${text}`)
    const entries = (piece?.data as { cases?: unknown } | undefined)?.cases
    if (!piece || !Array.isArray(entries) || entries.length !== count)
      return { first, entries: Array.from({ length: count }, (_, at) => fromWholeFile(first + at)) }
    entries.forEach((_, at) => {
      caseLines[first + at] = (dashLines[first] ?? 1) + piece.line(['cases', at]) - 2
    })
    return { first, entries }
  }
  const source = partsSourceMap(data, caseLines, wholeFile, (index) => {
    if (!batch || index < batch.first || batch.entries[index - batch.first] === undefined)
      batch = readBatch(index)
    const entry = batch.entries[index - batch.first]
    // each entry is handed out once, so that every reading of a case builds it from objects of its own
    batch.entries[index - batch.first] = undefined
    return entry
  })
  return { source, hash: hash('sha256', bytes, 'hex') }
}
