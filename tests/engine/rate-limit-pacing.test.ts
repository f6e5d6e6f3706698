import { afterEach, describe, expect, test } from 'vitest'
import { runInCallScope } from '../../src/engine/call-scope.ts'
import { RateLimiters } from '../../src/engine/rate-limit.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { Agent } from '../../src/index.ts'
import { startMockLlmServer, type MockLlmServer, type MockRateLimit } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/**
 * `calls` one-call runs at once through the real SDK against a mock provider enforcing `limit`, each in its own
 * (case, trial) scope under one set of limiters, as the runner makes them.
 */
async function burst(api: 'openai' | 'anthropic', limit: MockRateLimit, calls: number, maxConcurrency = 16) {
  server = await startMockLlmServer({ handler: () => ({ text: 'ok' }), latencyMs: 5, rateLimit: limit })
  const model =
    api === 'openai'
      ? new OpenAiProvider({ model: 'gpt-4.1-mini', apiKey: 'k', baseURL: server.openaiBaseURL })
      : new AnthropicProvider({ model: 'claude-sonnet-4-5', apiKey: 'k', baseURL: server.anthropicBaseURL })
  const agent = new Agent({ model, retry: { maxRetries: 3 } })
  const limiters = new RateLimiters({ maxConcurrency })
  const results = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      runInCallScope({ suite: 's', caseId: `c${i}`, trial: 0, limiters }, () => agent.run(`case ${i}`)),
    ),
  )
  return {
    failed: results.filter((result) => result.stopReason !== 'final').length,
    rateLimited: server.rateLimited,
    stats: limiters.stats()[model.id],
  }
}

describe("pacing by the provider's rate-limit headers", () => {
  test('OpenAI: a burst over the request budget is paced, not answered with 429s', async () => {
    const { failed, rateLimited, stats } = await burst(
      'openai',
      { requestsPerSecond: 100, requestBurst: 5 },
      60,
    )
    expect(failed).toBe(0)
    expect(stats).toMatchObject({ headerPaced: true })
    expect(stats?.paced).toBeGreaterThan(0)
    // 60 calls at 16 at once against a bucket of 5: unpaced, dozens of them would be turned away; paced, a loaded
    // machine's late replies may still let a few through early (the bench measures the rate on a quiet one)
    expect(rateLimited).toBeLessThanOrEqual(6)
  })

  test('Anthropic: the same, from its `anthropic-ratelimit-*` headers', async () => {
    const { failed, rateLimited, stats } = await burst(
      'anthropic',
      { requestsPerSecond: 100, requestBurst: 5 },
      60,
    )
    expect(failed).toBe(0)
    expect(stats).toMatchObject({ headerPaced: true })
    expect(rateLimited).toBeLessThanOrEqual(6)
  })

  test('a token budget paces calls by their estimated size', async () => {
    // each call's prompt is ~3 tokens: 1,200 tokens a minute with a burst of 20 admits about 6 calls at once
    const limit = { tokensPerMinute: 6000, tokenBurst: 20 }
    const { failed, rateLimited, stats } = await burst('openai', limit, 40)
    expect(failed).toBe(0)
    expect(stats).toMatchObject({ headerPaced: true })
    // unpaced, the first 16 at once against a burst of about 6 calls would see 10 turned away; a loaded machine's
    // late replies may let a few through early (5 seen in CI), as in the request tests above
    expect(rateLimited).toBeLessThanOrEqual(8)
  })

  test('without headers the limiter falls back to AIMD on 429s and still loses no call', async () => {
    // slow enough that even a loaded machine sends faster than the bucket refills
    const limit = { requestsPerSecond: 20, requestBurst: 2, silent: true }
    const { failed, rateLimited, stats } = await burst('openai', limit, 40)
    expect(failed).toBe(0)
    expect(stats).toMatchObject({ headerPaced: false })
    expect(rateLimited).toBeGreaterThan(0)
    expect(stats?.decreases).toBeGreaterThan(0)
  })
})
