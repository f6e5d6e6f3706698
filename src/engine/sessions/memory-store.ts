import { KeyedLock } from './keyed-lock.ts'
import type { ReleaseLock, SessionRecord, SessionStore } from './session-store.ts'

export interface InMemorySessionStoreOptions {
  /** a session not saved for this long is gone @default never */
  ttlMs?: number
  /** @default Date.now */
  now?: () => number
}

/** Sessions in a Map of this process: for tests, scripts and single-process servers. Records are copied in and out. */
export class InMemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>()
  readonly #locks = new KeyedLock()
  readonly #ttlMs: number | undefined
  readonly #now: () => number

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#ttlMs = options.ttlMs
    this.#now = options.now ?? Date.now
  }

  load(id: string): Promise<SessionRecord | undefined> {
    const record = this.#records.get(id)
    if (record && this.#ttlMs !== undefined && record.updatedAt + this.#ttlMs <= this.#now()) {
      this.#records.delete(id)
      return Promise.resolve(undefined)
    }
    return Promise.resolve(record && structuredClone(record))
  }

  save(record: SessionRecord): Promise<void> {
    this.#records.set(record.id, structuredClone(record))
    return Promise.resolve()
  }

  delete(id: string): Promise<void> {
    this.#records.delete(id)
    return Promise.resolve()
  }

  lock(id: string, signal?: AbortSignal): Promise<ReleaseLock> {
    return this.#locks.acquire(id, signal)
  }
}
