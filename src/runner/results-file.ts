import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { dirname } from 'node:path'
import { once } from 'node:events'

/** Appends one JSON value per line, waiting when the OS buffer is full so memory stays flat. */
export class JsonLinesFile {
  readonly path: string
  readonly #stream: WriteStream
  #failed: Error | undefined

  constructor(path: string) {
    this.path = path
    mkdirSync(dirname(path), { recursive: true })
    this.#stream = createWriteStream(path, { flags: 'a' })
    this.#stream.on('error', (error) => {
      this.#failed = error
    })
  }

  async append(value: unknown): Promise<void> {
    if (this.#failed) throw this.#failed
    if (!this.#stream.write(`${JSON.stringify(value)}\n`)) await once(this.#stream, 'drain')
  }

  async close(): Promise<void> {
    this.#stream.end()
    await once(this.#stream, 'finish')
    if (this.#failed) throw this.#failed
  }
}
