import { closeSync, fstatSync, openSync } from 'node:fs'
import { ConfigError } from '../../errors.ts'
import { readAt } from '../../util/read-at.ts'

/** bytes read at once: slices asked for in file order mostly fall in the chunk read for the one before */
const CHUNK_BYTES = 1 << 20

/**
 * Reads byte ranges of a file as UTF-8 text, a megabyte at a time, checking that the file is still the one that was
 * loaded (same size and modification time): a large case file's cases are read again when they run.
 */
export class FileSlices {
  readonly #path: string
  readonly #size: number
  readonly #mtimeMs: number
  #buffer = Buffer.alloc(0)
  /** the file's bytes [#start, #end) are in #buffer */
  #start = 0
  #end = 0

  constructor(path: string, loaded: { size: number; mtimeMs: number }) {
    this.#path = path
    this.#size = loaded.size
    this.#mtimeMs = loaded.mtimeMs
  }

  text(start: number, end: number): string {
    if (start < this.#start || end > this.#end) this.#read(start, end)
    return this.#buffer.toString('utf8', start - this.#start, end - this.#start)
  }

  #read(start: number, end: number): void {
    const fd = openSync(this.#path, 'r')
    try {
      const { size, mtimeMs } = fstatSync(fd)
      if (size !== this.#size || mtimeMs !== this.#mtimeMs) {
        throw new ConfigError(`${this.#path} changed after it was loaded; run again to use the new cases.`)
      }
      const length = Math.min(Math.max(CHUNK_BYTES, end - start), size - start)
      if (this.#buffer.length < length) this.#buffer = Buffer.allocUnsafe(length)
      this.#start = start
      this.#end = start + readAt(fd, this.#buffer, 0, length, start)
    } finally {
      closeSync(fd)
    }
  }
}
