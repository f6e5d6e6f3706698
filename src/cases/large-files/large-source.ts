/**
 * Large-run code, boxed in: reading a case file of 100,000 cases in flat memory.
 *
 * `loadSuite` hands a JSON or YAML case file over `LARGE_FILE_BYTES` here. One pass over the file records where
 * each case's bytes are and the line it starts on (json-case-scan.ts for JSON, yaml-case-split.ts for YAML); a case
 * is parsed from its bytes (file-slices.ts) when it is validated and again when it runs, so neither the file's text
 * nor its parsed cases are ever held whole. It serves the 100,000-case rows of `npm run bench:promptfoo` (peak RSS
 * at 100k within 1.5x of that at 10k). A file this code cannot split safely is parsed whole, as a small file is;
 * everything else in cases/ reads files whole and plainly: keep byte-level code in this folder.
 */
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
