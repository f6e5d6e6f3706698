import { InternalError } from '../../errors.ts'
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { canonicalJson } from '../../util/canonical-json.ts'
import type { Redactor } from '../../util/redact.ts'

const BUFFER_BYTES = 256 * 1024
const FLUSH_EVERY_MS = 250
const NEWLINE = 10

/**
 * Appends one JSON value per line, keys sorted (canonical JSON, as report.json holds them); with a redactor, its
 * secrets redacted value by value (a run's results come redacted from where they are made). Lines are encoded into
 * one reused buffer and written with a synchronous append when it fills (and at least every 250 ms, so a killed run
 * loses little): a 100k-case run makes no garbage buffers and never queues writes, so memory stays flat. Each write
 * is a few hundred microseconds to the page cache.
 */
export class JsonLinesFile {
  readonly path: string
  readonly #fd: number
  readonly #buffer = Buffer.allocUnsafe(BUFFER_BYTES)
  readonly #timer: NodeJS.Timeout
  #used = 0
  /** where the next line starts in the file */
  #offset: number
  #closed = false
  #failed: Error | undefined
  readonly #redactor: Redactor | undefined

  constructor(path: string, redactor?: Redactor) {
    this.path = path
    this.#redactor = redactor
    mkdirSync(dirname(path), { recursive: true })
    this.#fd = openSync(path, 'a')
    this.#offset = fstatSync(this.#fd).size
    this.#timer = setInterval(() => {
      try {
        this.#flush()
      } catch (error) {
        this.#failed ??= error as Error
      }
    }, FLUSH_EVERY_MS).unref()
  }

  /** The file offset the next line will start at. */
  get offset(): number {
    return this.#offset
  }

  /**
   * Appends a line; returns its length in bytes, without the newline. Throws when the file cannot be written (disk
   * full, closed): the run stops rather than lose results.
   */
  append(value: unknown): number {
    return this.appendJson(canonicalJson(this.#redactor ? this.#redactor.value(value) : value))
  }

  /** `append` of a value already redacted and serialized: `json` is its canonical JSON, on one line. */
  appendJson(json: string): number {
    if (this.#failed) throw this.#failed
    if (this.#closed) throw new InternalError(`${this.path} is closed`)
    // the newline goes in as a byte: `${json}\n` would make a cons string that must be flattened to be encoded
    let bytes: number
    // a UTF-8 line takes at most 3 bytes per UTF-16 unit
    const most = json.length * 3 + 1
    if (most > BUFFER_BYTES - this.#used) this.#flush()
    if (most > BUFFER_BYTES) bytes = writeSync(this.#fd, json) + writeSync(this.#fd, '\n')
    else {
      bytes = this.#buffer.write(json, this.#used) + 1
      this.#buffer[this.#used + bytes - 1] = NEWLINE
      this.#used += bytes
    }
    this.#offset += bytes
    return bytes - 1
  }

  /** Writes what is buffered and closes the file; throws the first write error of the run, if any. */
  close(): void {
    if (this.#closed) return
    clearInterval(this.#timer)
    this.#closed = true
    try {
      this.#flush()
    } finally {
      closeSync(this.#fd)
    }
    if (this.#failed) throw this.#failed
  }

  #flush(): void {
    let written = 0
    while (written < this.#used) written += writeSync(this.#fd, this.#buffer, written, this.#used - written)
    this.#used = 0
  }
}
