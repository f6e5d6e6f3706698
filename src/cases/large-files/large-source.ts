/**
 * Large-run code, boxed in: reading a case file of 100,000 cases in flat memory.
 *
 * `loadSuite` hands a JSON or YAML case file of `LARGE_FILE_BYTES` or more here. One pass over the file records where
 * each case's bytes are and the line it starts on (json-case-scan.ts for JSON, yaml-case-split.ts for YAML); a case
 * is parsed from its bytes (file-slices.ts) when it is validated and again when it runs. A JSON file is read a
 * megabyte at a time; a YAML file's bytes are read whole once, for the split, and dropped when it is done. Neither
 * becomes one string, nor are its parsed cases ever held all at once, unless an issue's position or a YAML entry that
 * reads only in the whole file calls for a whole-file parse. It serves the 100,000-case rows of
 * `npm run bench:promptfoo` (peak RSS at 100k within 1.5x of that at 10k). A file this code cannot split safely, or
 * whose `cases:` names datasets, is parsed whole, as a small file is; everything else in cases/ reads files whole and
 * plainly: keep byte-level code in this folder.
 */
import { readFileSync } from 'node:fs'
import type { SourceMap } from '../source-map.ts'

/** Below this size a case file is read and parsed whole: streaming pays off only for large case lists. */
export const LARGE_FILE_BYTES = 8 << 20

/** A case file as `loadSuite` reads it: its source map and the SHA-256 of its bytes. */
export interface ReadSource {
  source: SourceMap
  hash: string
}

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

/** `parse` of the file at `path` read whole: made at the first call, then kept. */
export function wholeFileParse(path: string, parse: (text: string) => SourceMap): () => SourceMap {
  let whole: SourceMap | undefined
  return () => (whole ??= parse(readFileSync(path, 'utf8')))
}

/**
 * The source map of a file read in parts. `data` is its top level, with `cases` a placeholder of the right length;
 * `caseEntry` parses a case when asked for. A case's line is read from `caseLines` (as it is at that moment); any
 * other position, needed only to report an issue, comes from `wholeFile`.
 */
export function partsSourceMap(
  data: unknown,
  caseLines: ArrayLike<number>,
  wholeFile: () => SourceMap,
  caseEntry: (index: number) => unknown,
): SourceMap {
  return {
    data,
    errors: [],
    locate: (at, key) => wholeFile().locate(at, key),
    line: (at) =>
      at.length === 2 && at[0] === 'cases' && typeof at[1] === 'number'
        ? (caseLines[at[1]] ?? 1)
        : wholeFile().line(at),
    caseEntry,
  }
}
