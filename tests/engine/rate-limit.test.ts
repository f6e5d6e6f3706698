import { describe, expect, test } from 'vitest'
import { runInCallScope } from '../../src/engine/call-scope.ts'
import { AdaptiveLimiter, RateLimiters } from '../../src/engine/rate-limit.ts'
import { Agent, ProviderError, type Completion, type Provider } from '../../src/index.ts'
import { emptyUsage } from '../../src/types.ts'

const signal = new AbortController().signal

/** a limiter past its first call: until a reply comes back, the first call goes alone */
async function warm(limiter: AdaptiveLimiter): Promise<AdaptiveLimiter> {
  ;(await limiter.acquire(signal)).done('ok')
  return limiter
}

/** A provider that answers at most `capacity` calls at once and sends a 429 with retry-after to the rest. */
function cappedProvider(capacity: number, latencyMs = 5) {
  const stats = { inFlight: 0, peak: 0, calls: 0, rejected: 0 }
  const provider: Provider = {
    id: 'capped',
    async complete(): Promise<Completion> {
      stats.calls++
      if (stats.inFlight >= capacity) {
        stats.rejected++
        throw new ProviderError('capped returned 429: slow down', {
          providerId: 'capped',
          status: 429,
          retryable: true,
          retryAfterMs: 2,
        })
      }
      stats.inFlight++
      stats.peak = Math.max(stats.peak, stats.inFlight)
      await new Promise((resolve) => setTimeout(resolve, latencyMs))
      stats.inFlight--
      return { message: { text: 'ok', toolCalls: [] }, usage: emptyUsage(), finishReason: 'stop', model: 'm' }
    },
  }
  return { provider, stats }
}

describe('AdaptiveLimiter', () => {
  test('halves the limit once per burst of 429s and never goes below one', async () => {
    const limiter = await warm(new AdaptiveLimiter({ maxConcurrency: 16, defaultPauseMs: 0 }))
    const slots = await Promise.all(Array.from({ length: 16 }, () => limiter.acquire(signal)))
    for (const slot of slots) slot.done({ rateLimited: true, retryAfterMs: 0 })
    expect(limiter.limit).toBe(8)
    for (const expected of [4, 2, 1, 1]) {
      const slot = await limiter.acquire(signal)
      slot.done({ rateLimited: true, retryAfterMs: 0 })
      expect(limiter.limit).toBe(expected)
    }
    expect(limiter.stats).toMatchObject({ lowestLimit: 1, rateLimited: 20, decreases: 4 })
  })

  test('lets the first call go alone: the others wait for its reply', async () => {
    const limiter = new AdaptiveLimiter({ maxConcurrency: 4 })
    const first = await limiter.acquire(signal)
    let second = false
    const waiting = limiter.acquire(signal).then((slot) => {
      second = true
      return slot
    })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(second).toBe(false)
    first.done('ok')
    ;(await waiting).done('ok')
    const both = await Promise.all([limiter.acquire(signal), limiter.acquire(signal)])
    expect(limiter.active).toBe(2)
    for (const slot of both) slot.done('ok')
  })

  test('adds one slot after every `increaseAfter` successes in a row, up to the maximum', async () => {
    const limiter = new AdaptiveLimiter({ maxConcurrency: 3, increaseAfter: 2, defaultPauseMs: 0 })
    ;(await limiter.acquire(signal)).done({ rateLimited: true, retryAfterMs: 0 })
    expect(limiter.limit).toBe(1)
    const limits: number[] = []
    for (let i = 0; i < 6; i++) {
      ;(await limiter.acquire(signal)).done('ok')
      limits.push(limiter.limit)
    }
    expect(limits).toEqual([1, 2, 2, 3, 3, 3])
  })

  test('a failure that is not a 429 neither lowers nor raises the limit', async () => {
    const limiter = new AdaptiveLimiter({ maxConcurrency: 4, increaseAfter: 1, defaultPauseMs: 0 })
    ;(await limiter.acquire(signal)).done('failed')
    expect(limiter.stats).toMatchObject({ limit: 4, decreases: 0, increases: 0 })
  })

  test('holds new calls back for the retry-after of a 429', async () => {
    const limiter = new AdaptiveLimiter({ maxConcurrency: 4 })
    ;(await limiter.acquire(signal)).done({ rateLimited: true, retryAfterMs: 60 })
    const started = performance.now()
    ;(await limiter.acquire(signal)).done('ok')
    expect(performance.now() - started).toBeGreaterThanOrEqual(50)
  })

  test('queues calls over the limit and lets them in as slots free up', async () => {
    const limiter = await warm(new AdaptiveLimiter({ maxConcurrency: 2 }))
    const first = await limiter.acquire(signal)
    const second = await limiter.acquire(signal)
    let third = false
    const waiting = limiter.acquire(signal).then((slot) => {
      third = true
      return slot
    })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(third).toBe(false)
    first.done('ok')
    ;(await waiting).done('ok')
    second.done('ok')
    expect(limiter.active).toBe(0)
  })

  test('a queued call gives up when its signal aborts', async () => {
    const limiter = new AdaptiveLimiter({ maxConcurrency: 1 })
    const held = await limiter.acquire(signal)
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort(new Error('case timed out'))
    await expect(waiting).rejects.toThrow('case timed out')
    held.done('ok')
    expect(limiter.active).toBe(0)
  })
})

describe('model calls under the runner scope', () => {
  const runAll = (agent: Agent, limiters: RateLimiters | undefined, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        runInCallScope({ suite: 's', caseId: `c${i}`, trial: 0, ...(limiters ? { limiters } : {}) }, () =>
          agent.run(`case ${i}`),
        ),
      ),
    )

  test('a rate-limited burst finishes without errors: the limiter lowers concurrency and waits out 429s', async () => {
    const { provider, stats } = cappedProvider(3)
    const agent = new Agent({ model: provider, retry: { maxRetries: 2 } })
    const limiters = new RateLimiters({ maxConcurrency: 16 })

    const results = await runAll(agent, limiters, 48)

    expect(results.filter((result) => result.stopReason !== 'final')).toEqual([])
    expect(stats.rejected).toBeGreaterThan(0)
    const limiter = limiters.stats()['capped']
    expect(limiter?.decreases).toBeGreaterThan(0)
    expect(limiter?.lowestLimit).toBeLessThanOrEqual(4)
  })

  test('without the limiter the same burst exhausts the retry budget', async () => {
    const { provider } = cappedProvider(3)
    const agent = new Agent({ model: provider, retry: { maxRetries: 2 } })

    const results = await runAll(agent, undefined, 48)

    expect(results.some((result) => result.stopReason === 'error')).toBe(true)
  })

  test('retry.maxRetries 0 still fails fast on a 429 under the limiter', async () => {
    const { provider } = cappedProvider(0)
    const agent = new Agent({ model: provider, retry: { maxRetries: 0 } })

    const [result] = await runAll(agent, new RateLimiters({ maxConcurrency: 4 }), 1)

    expect(result?.stopReason).toBe('error')
    expect(result?.error).toContain('429')
  })

  test('a 429 that never ends fails after maxRateLimitRetries', async () => {
    const { provider, stats } = cappedProvider(0)
    const agent = new Agent({ model: provider })
    const limiters = new RateLimiters({ maxConcurrency: 4, maxRateLimitRetries: 5 })

    const [result] = await runAll(agent, limiters, 1)

    expect(result?.stopReason).toBe('error')
    expect(stats.calls).toBe(6)
  })
})
