import type { RateLimitReading } from '../types.ts'
import { RateBudget, type SentCall } from './rate-budget.ts'
import { abortReason } from './retry.ts'

/** How the runner paces and limits model calls to one provider. */
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
  /** calls held back until the provider's budget (from its rate-limit headers) had room for them */
  paced: number
  /** whether the provider sent rate-limit headers, so calls are paced by them */
  headerPaced: boolean
}

/** How one attempt went: the provider's rate-limit reading, when its reply or error carried one, goes with it. */
export type RateLimitOutcome = 'ok' | 'failed' | { rateLimited: true; retryAfterMs: number | undefined }

/** A slot held by one attempt; call `done` exactly once with how the attempt went. */
export interface RateLimitSlot {
  done(outcome: RateLimitOutcome, reading?: RateLimitReading): void
}

/** What one call will spend: a request, and its estimated tokens (prompt plus the output it may generate). */
export interface CallCost {
  tokens?: number
}

interface Ticket {
  tokens: number
  /** whether it has waited for a budget (counted once in `paced`) */
  paced: boolean
  grant: (slot: RateLimitSlot) => void
}

/**
 * Paces and limits the calls to one provider, in arrival order.
 *
 * - **By the provider's headers** (OpenAI `x-ratelimit-*`, Anthropic `anthropic-ratelimit-*`): the request and token
 *   budgets they describe are followed between replies (`RateBudget`), and a call is sent only when both have room
 *   for it, so the provider is paced to its limit instead of probed with 429s. The first call goes alone, so the
 *   first burst does not run ahead of the first reading.
 * - **AIMD, when no headers come**: a 429 halves the calls allowed in flight (once per burst: 429s from calls
 *   started before the last decrease do not halve again) and pauses new calls for the retry-after; every
 *   `increaseAfter` successes in a row add one back, up to `maxConcurrency`.
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
  #seq = 0
  #answered = false
  #requests: RateBudget | undefined
  #tokens: RateBudget | undefined
  #queue: Ticket[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #stats = { lowestLimit: 0, rateLimited: 0, decreases: 0, increases: 0, paced: 0 }

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
    const headerPaced = this.#requests !== undefined || this.#tokens !== undefined
    return { limit: this.#limit, ...this.#stats, headerPaced }
  }

  /** Waits its turn for a slot (and for the provider's budget and any retry-after pause); rejects on abort. */
  acquire(signal: AbortSignal, cost: CallCost = {}): Promise<RateLimitSlot> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(abortReason(signal))
        return
      }
      const onAbort = (): void => {
        this.#queue = this.#queue.filter((queued) => queued !== ticket)
        reject(abortReason(signal))
        this.#pump()
      }
      const ticket: Ticket = {
        tokens: cost.tokens ?? 0,
        paced: false,
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort)
          resolve(slot)
        },
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#queue.push(ticket)
      this.#pump()
    })
  }

  /** lets queued calls go, in order, while each has a slot and room in the budgets; else waits for either */
  #pump(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    while (this.#queue.length > 0) {
      const ticket = this.#queue[0] as Ticket
      if (this.#active >= this.#limit || (!this.#answered && this.#active > 0)) return
      const now = Date.now()
      const waitMs = Math.max(
        this.#pausedUntil - now,
        this.#requests?.waitMs(1, now) ?? 0,
        this.#tokens?.waitMs(ticket.tokens, now) ?? 0,
      )
      if (waitMs > 0) {
        if (this.#pausedUntil <= now && !ticket.paced) {
          ticket.paced = true
          this.#stats.paced++
        }
        this.#timer = setTimeout(() => {
          this.#pump()
        }, waitMs)
        return
      }
      this.#queue.shift()
      ticket.grant(this.#grant(ticket.tokens))
    }
  }

  #grant(tokens: number): RateLimitSlot {
    this.#active++
    const generation = this.#generation
    const request: SentCall = { seq: this.#seq++, cost: 1, sentAt: Date.now() }
    const spent: SentCall = { ...request, cost: tokens }
    this.#requests?.spend(request)
    this.#tokens?.spend(spent)
    let released = false
    return {
      done: (outcome, reading) => {
        if (released) return
        released = true
        this.#active--
        this.#answered = true
        if (reading) this.#read(reading, request, spent, Date.now())
        if (outcome === 'ok') this.#succeeded()
        else if (outcome !== 'failed') this.#rateLimited(generation, outcome.retryAfterMs)
        this.#pump()
      },
    }
  }

  #read(reading: RateLimitReading, request: SentCall, tokens: SentCall, now: number): void {
    if (reading.requests) {
      if (this.#requests) this.#requests.read(reading.requests, request, now)
      else this.#requests = new RateBudget(reading.requests, request, now)
    }
    if (reading.tokens) {
      if (this.#tokens) this.#tokens.read(reading.tokens, tokens, now)
      else this.#tokens = new RateBudget(reading.tokens, tokens, now)
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
