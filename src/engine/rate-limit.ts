import { sleep } from './retry.ts'

/** How the runner adapts its concurrency to a provider's rate limits. */
export interface RateLimitOptions {
  /** the most calls in flight per provider; the limiter starts here (the runner passes its concurrency) */
  maxConcurrency: number
  /** successful calls in a row before the limit grows by one @default 4 */
  increaseAfter?: number
  /** 429s one model call may wait out before it fails; `retry.maxRetries: 0` still fails fast @default 30 */
  maxRateLimitRetries?: number
  /** the pause after a 429 that carries no retry-after @default 1000 */
  defaultPauseMs?: number
}

/** What a limiter did, for tests and reports. */
export interface RateLimitStats {
  limit: number
  lowestLimit: number
  rateLimited: number
  decreases: number
  increases: number
}

/** A slot held by one attempt; call `done` exactly once with how the attempt went. */
export interface RateLimitSlot {
  done(outcome: 'ok' | 'failed' | { rateLimited: true; retryAfterMs: number | undefined }): void
}

/**
 * AIMD concurrency for one provider: a 429 halves the calls allowed in flight (once per burst: 429s from calls
 * started before the last decrease do not halve again) and pauses new calls for the retry-after; every
 * `increaseAfter` successes in a row add one back, up to `maxConcurrency`.
 */
export class AdaptiveLimiter {
  readonly maxConcurrency: number
  readonly maxRateLimitRetries: number
  readonly #increaseAfter: number
  readonly #defaultPauseMs: number
  #limit: number
  #active = 0
  #streak = 0
  #generation = 0
  #pausedUntil = 0
  #waiters: (() => void)[] = []
  #stats = { lowestLimit: 0, rateLimited: 0, decreases: 0, increases: 0 }

  constructor(options: RateLimitOptions) {
    this.maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency))
    this.maxRateLimitRetries = options.maxRateLimitRetries ?? 30
    this.#increaseAfter = Math.max(1, options.increaseAfter ?? 4)
    this.#defaultPauseMs = options.defaultPauseMs ?? 1000
    this.#limit = this.maxConcurrency
    this.#stats.lowestLimit = this.#limit
  }

  /** calls allowed in flight now */
  get limit(): number {
    return this.#limit
  }

  /** calls in flight now */
  get active(): number {
    return this.#active
  }

  get stats(): RateLimitStats {
    return { limit: this.#limit, ...this.#stats }
  }

  /** Waits for a free slot (and for any retry-after pause to end); rejects when the signal aborts. */
  async acquire(signal: AbortSignal): Promise<RateLimitSlot> {
    while (true) {
      const pause = this.#pausedUntil - Date.now()
      if (pause > 0) {
        await sleep(pause, signal)
        continue
      }
      if (this.#active < this.#limit) break
      await this.#wait(signal)
    }
    this.#active++
    const generation = this.#generation
    let released = false
    return {
      done: (outcome) => {
        if (released) return
        released = true
        this.#active--
        if (outcome === 'ok') this.#succeeded()
        else if (outcome !== 'failed') this.#rateLimited(generation, outcome.retryAfterMs)
        this.#wake()
      },
    }
  }

  #succeeded(): void {
    this.#streak++
    if (this.#streak >= this.#increaseAfter && this.#limit < this.maxConcurrency) {
      this.#limit++
      this.#streak = 0
      this.#stats.increases++
    }
  }

  #rateLimited(generation: number, retryAfterMs: number | undefined): void {
    this.#stats.rateLimited++
    this.#streak = 0
    if (generation === this.#generation) {
      this.#generation++
      const halved = Math.max(1, Math.floor(this.#limit / 2))
      if (halved < this.#limit) this.#stats.decreases++
      this.#limit = halved
      this.#stats.lowestLimit = Math.min(this.#stats.lowestLimit, halved)
    }
    const until = Date.now() + (retryAfterMs ?? this.#defaultPauseMs)
    this.#pausedUntil = Math.max(this.#pausedUntil, until)
  }

  #wait(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== wake)
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      }
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      }
      if (signal.aborted) {
        onAbort()
        return
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#waiters.push(wake)
    })
  }

  /** wakes as many waiters as there are free slots; each re-checks the pause and the limit */
  #wake(): void {
    let free = this.#limit - this.#active
    while (free-- > 0) this.#waiters.shift()?.()
  }
}

/** One AdaptiveLimiter per provider id, made on first use. */
export class RateLimiters {
  readonly #options: RateLimitOptions
  readonly #byProvider = new Map<string, AdaptiveLimiter>()

  constructor(options: RateLimitOptions) {
    this.#options = options
  }

  for(providerId: string): AdaptiveLimiter {
    let limiter = this.#byProvider.get(providerId)
    if (!limiter) {
      limiter = new AdaptiveLimiter(this.#options)
      this.#byProvider.set(providerId, limiter)
    }
    return limiter
  }

  /** stats per provider id */
  stats(): Record<string, RateLimitStats> {
    return Object.fromEntries([...this.#byProvider].map(([id, limiter]) => [id, limiter.stats]))
  }
}
