/**
 * Stores model replies and tool results by key (model replies under their request hash, tool results under
 * `tool:<name>:<hash>`). Implementations may be sync or async; `delete`, `clear` and `stats` are optional.
 */
export interface ResponseCache {
  /** the stored value, or undefined when there is none or it expired */
  get(key: string): unknown
  /** `ttlMs` overrides the cache's own lifetime for this entry */
  set(key: string, value: unknown, options?: { ttlMs?: number }): void | Promise<void>
  delete?(key: string): void | Promise<void>
  clear?(): void | Promise<void>
  stats?(): CacheStats
}

/** How a cache has served so far. */
export interface CacheStats {
  hits: number
  misses: number
  /** entries dropped to stay within `maxEntries` */
  evictions: number
  size: number
}

export interface MemoryCacheOptions {
  /** entries kept before the least recently used is dropped @default 1000 */
  maxEntries?: number
  /** how long an entry lives @default Infinity */
  ttlMs?: number
}

/** In-memory LRU cache with an optional TTL. */
export class MemoryCache implements ResponseCache {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>()
  readonly #maxEntries: number
  readonly #ttlMs: number
  readonly #stats = { hits: 0, misses: 0, evictions: 0 }

  constructor(options: MemoryCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 1000
    this.#ttlMs = options.ttlMs ?? Infinity
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: string): unknown {
    const entry = this.#entries.get(key)
    if (entry) this.#entries.delete(key)
    if (!entry || entry.expiresAt <= Date.now()) {
      this.#stats.misses++
      return undefined
    }
    this.#stats.hits++
    this.#entries.set(key, entry)
    return structuredClone(entry.value)
  }

  set(key: string, value: unknown, options: { ttlMs?: number } = {}): void {
    this.#entries.delete(key)
    const expiresAt = Date.now() + (options.ttlMs ?? this.#ttlMs)
    this.#entries.set(key, { value: structuredClone(value), expiresAt })
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
      this.#stats.evictions++
    }
  }

  delete(key: string): void {
    this.#entries.delete(key)
  }

  clear(): void {
    this.#entries.clear()
  }

  stats(): CacheStats {
    return { ...this.#stats, size: this.#entries.size }
  }
}
