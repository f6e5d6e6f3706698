import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { dirname } from 'node:path'
import { once } from 'node:events'

const CHUNK_BYTES = 256 * 1024
const FLUSH_EVERY_MS = 250

/**
 * Appends one JSON value per line. Lines are batched into large writes (flushed at least every 250 ms, so a killed
 * run loses little), and `append` waits when the OS buffer is full, so memory stays flat.
 */
export class JsonLinesFile {
  readonly path: string
  readonly #stream: WriteStream
  readonly #timer: NodeJS.Timeout
  #pending: string[] = []
  #pendingBytes = 0
  #failed: Error | undefined

  constructor(path: string) {
    this.path = path
    mkdirSync(dirname(path), { recursive: true })
    this.#stream = createWriteStream(path, { flags: 'a' })
    this.#stream.on('error', (error) => {
      this.#failed = error
    })
    this.#timer = setInterval(() => {
      this.#flush()
    }, FLUSH_EVERY_MS).unref()
  }

  async append(value: unknown): Promise<void> {
    if (this.#failed) throw this.#failed
    const line = `${JSON.stringify(value)}\n`
    this.#pending.push(line)
    this.#pendingBytes += line.length
    if (this.#pendingBytes >= CHUNK_BYTES && !this.#flush()) await once(this.#stream, 'drain')
  }

  async close(): Promise<void> {
    clearInterval(this.#timer)
    this.#flush()
    this.#stream.end()
    await once(this.#stream, 'finish')
    if (this.#failed) throw this.#failed
  }

  /** Writes what is pending; false when the stream asks to wait for `drain`. */
  #flush(): boolean {
    if (this.#pending.length === 0) return true
    const chunk = this.#pending.join('')
    this.#pending = []
    this.#pendingBytes = 0
    return this.#stream.write(chunk)
  }
}
