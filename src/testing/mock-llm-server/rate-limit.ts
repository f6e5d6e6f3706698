import type { MockErrorReply, MockRateLimit, MockRequest } from './types.ts'

/** The budgets of one mock server; `admit` charges a request or answers why not. */
export class MockRateLimiter {
  readonly #requests: Bucket | undefined
  readonly #tokens: Bucket | undefined
  readonly #silent: boolean
  /** requests answered 429 so far */
  rejected = 0

  constructor(limit: MockRateLimit) {
    this.#silent = limit.silent === true
    if (limit.requestsPerSecond !== undefined) {
      const perMs = limit.requestsPerSecond / 1000
      this.#requests = new Bucket(limit.requestBurst ?? limit.requestsPerSecond, perMs)
    }
    if (limit.tokensPerMinute !== undefined) {
      const perMs = limit.tokensPerMinute / 60_000
      this.#tokens = new Bucket(limit.tokenBurst ?? limit.tokensPerMinute / 60, perMs)
    }
  }

  /** charges the request, returning the headers for its reply; or the 429 to send instead */
  admit(request: MockRequest): { headers: Record<string, string> } | { reject: MockErrorReply } {
    const now = request.receivedAt
    const tokens = requestTokens(request.body)
    const waitMs = Math.max(this.#requests?.waitMs(1, now) ?? 0, this.#tokens?.waitMs(tokens, now) ?? 0)
    if (waitMs > 0) {
      this.rejected++
      const headers = this.#headers(request.api, now)
      return { reject: { status: 429, retryAfterMs: waitMs, headers, latencyMs: 0 } }
    }
    this.#requests?.take(1, now)
    this.#tokens?.take(tokens, now)
    return { headers: this.#headers(request.api, now) }
  }

  #headers(api: MockRequest['api'], now: number): Record<string, string> {
    if (this.#silent) return {}
    const headers: Record<string, string> = {}
    for (const [kind, bucket] of [
      ['requests', this.#requests],
      ['tokens', this.#tokens],
    ] as const) {
      if (!bucket) continue
      const { limit, remaining, resetMs } = bucket.state(now)
      if (api === 'anthropic') {
        headers[`anthropic-ratelimit-${kind}-limit`] = String(limit)
        headers[`anthropic-ratelimit-${kind}-remaining`] = String(remaining)
        headers[`anthropic-ratelimit-${kind}-reset`] = new Date(now + resetMs).toISOString()
      } else {
        headers[`x-ratelimit-limit-${kind}`] = String(limit)
        headers[`x-ratelimit-remaining-${kind}`] = String(remaining)
        headers[`x-ratelimit-reset-${kind}`] = `${resetMs}ms`
      }
    }
    return headers
  }
}

/** What the token budget is charged for a request: its prompt (4 characters a token) and its output limit. */
function requestTokens(body: unknown): number {
  const { messages, system, tools, max_tokens, max_completion_tokens } = (body ?? {}) as Record<
    string,
    unknown
  >
  let chars = typeof system === 'string' ? system.length : 0
  for (const message of Array.isArray(messages) ? messages : []) {
    const content: unknown = (message as { content?: unknown }).content
    chars += typeof content === 'string' ? content.length : JSON.stringify(content ?? '').length
  }
  for (const tool of Array.isArray(tools) ? tools : []) chars += JSON.stringify(tool).length
  const output = Number(max_completion_tokens ?? max_tokens ?? 0)
  return Math.ceil(chars / 4) + (Number.isFinite(output) ? output : 0)
}

class Bucket {
  readonly #capacity: number
  readonly #perMs: number
  #level: number
  #at = Number.NEGATIVE_INFINITY

  constructor(capacity: number, perMs: number) {
    this.#capacity = capacity
    this.#perMs = perMs
    this.#level = capacity
  }

  waitMs(cost: number, now: number): number {
    const missing = Math.min(cost, this.#capacity) - this.#levelAt(now)
    return missing <= 0 ? 0 : Math.ceil(missing / this.#perMs)
  }

  take(cost: number, now: number): void {
    this.#level = this.#levelAt(now) - cost
    this.#at = now
  }

  state(now: number): { limit: number; remaining: number; resetMs: number } {
    const level = this.#levelAt(now)
    const remaining = Math.max(0, Math.floor(level))
    return {
      limit: Math.floor(this.#capacity),
      remaining,
      resetMs: Math.ceil((this.#capacity - level) / this.#perMs),
    }
  }

  #levelAt(now: number): number {
    return Math.min(this.#capacity, this.#level + this.#perMs * (now - this.#at))
  }
}
