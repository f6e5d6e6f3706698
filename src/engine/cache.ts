import type { Completion } from '../providers/provider.ts'

/** Stores model replies by the hash of their canonical request. Implementations may be sync or async. */
export interface ResponseCache {
  get(key: string): Completion | undefined | Promise<Completion | undefined>
  set(key: string, value: Completion): void | Promise<void>
}

export interface MemoryCacheOptions {
  /** entries kept before the least recently used is dropped @default 1000 */
  maxEntries?: number
  /** how long an entry lives @default Infinity */
  ttlMs?: number
}

/** In-memory LRU cache with an optional TTL. */
export class MemoryCache implements ResponseCache {
  readonly #entries = new Map<string, { value: Completion; expiresAt: number }>()
  readonly #maxEntries: number
  readonly #ttlMs: number

  constructor(options: MemoryCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 1000
    this.#ttlMs = options.ttlMs ?? Infinity
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: string): Completion | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    this.#entries.delete(key)
    if (entry.expiresAt <= Date.now()) return undefined
    this.#entries.set(key, entry)
    return structuredClone(entry.value)
  }

  set(key: string, value: Completion): void {
    this.#entries.delete(key)
    this.#entries.set(key, { value: structuredClone(value), expiresAt: Date.now() + this.#ttlMs })
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
  }
}
