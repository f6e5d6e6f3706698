import { readFile, rm } from 'node:fs/promises'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { lock } from 'proper-lockfile'
import { ConfigError, toError } from '../../errors.ts'
import { writeFileAtomic } from '../../util/atomic-file.ts'
import { sleep } from '../retry.ts'
import { KeyedLock } from './keyed-lock.ts'
import type { ReleaseLock, SessionRecord, SessionStore } from './session-store.ts'

export interface FileSessionStoreOptions {
  /** folder of the session files, one `<id>.json` each; made when missing */
  dir: string
  /** a session not saved for this long is gone @default never */
  ttlMs?: number
  /** how long a run waits for another process's lock on its session before it fails @default 120_000 */
  lockTimeoutMs?: number
  /** a lock file its holder has not refreshed for this long is taken over (its process died) @default 30_000 */
  staleLockMs?: number
  /** @default Date.now */
  now?: () => number
}

/**
 * Sessions as JSON files in a folder. Writes are atomic (a temporary file renamed into place) and redacted like every
 * file the package writes; a session's lock is held within the process and, through a lock file beside the session,
 * across processes, so runs of one session in several workers take turns.
 */
export class FileSessionStore implements SessionStore {
  readonly #dir: string
  readonly #ttlMs: number | undefined
  readonly #lockTimeoutMs: number
  readonly #staleLockMs: number
  readonly #now: () => number
  readonly #inProcess = new KeyedLock()

  constructor(options: FileSessionStoreOptions) {
    if (typeof options.dir !== 'string' || options.dir === '')
      throw new ConfigError('`FileSessionStore` needs `dir`: the folder to keep session files in.')
    this.#dir = options.dir
    this.#ttlMs = options.ttlMs
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 120_000
    this.#staleLockMs = options.staleLockMs ?? 30_000
    this.#now = options.now ?? Date.now
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const file = this.#file(id)
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    let record: SessionRecord
    try {
      record = JSON.parse(text) as SessionRecord
    } catch (error) {
      throw new Error(
        `Session file ${file} is not valid JSON (${toError(error).message}); delete it to start over.`,
      )
    }
    if (this.#ttlMs !== undefined && record.updatedAt + this.#ttlMs <= this.#now()) {
      await rm(file, { force: true })
      return undefined
    }
    return record
  }

  async save(record: SessionRecord): Promise<void> {
    await writeFileAtomic(this.#file(record.id), `${JSON.stringify(record)}\n`)
  }

  async delete(id: string): Promise<void> {
    await rm(this.#file(id), { force: true })
  }

  async lock(id: string, signal?: AbortSignal): Promise<ReleaseLock> {
    const releaseHere = await this.#inProcess.acquire(id, signal)
    try {
      const releaseFile = await this.#lockFile(id, signal)
      return async () => {
        try {
          await releaseFile()
        } finally {
          await releaseHere()
        }
      }
    } catch (error) {
      await releaseHere()
      throw error
    }
  }

  async #lockFile(id: string, signal: AbortSignal | undefined): Promise<ReleaseLock> {
    await mkdir(this.#dir, { recursive: true })
    const file = this.#file(id)
    const deadline = performance.now() + this.#lockTimeoutMs
    for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
      signal?.throwIfAborted()
      try {
        return await lock(file, {
          realpath: false,
          stale: this.#staleLockMs,
          // a refresh that failed means another process may hold the lock now; the run goes on, as it cannot undo
          onCompromised: () => undefined,
        })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
        if (performance.now() > deadline)
          throw new Error(
            `Session \`${id}\` stayed locked by another process for ${this.#lockTimeoutMs} ms (lock file ${file}.lock); raise \`lockTimeoutMs\` or remove the lock file if no run holds it.`,
            { cause: error },
          )
        await sleep(wait, signal ?? new AbortController().signal)
      }
    }
  }

  #file(id: string): string {
    return join(this.#dir, `${encodeURIComponent(id)}.json`)
  }
}
