import { describe, expect, test } from 'vitest'
import { readRateLimitHeaders } from '../../src/providers/rate-limit-headers.ts'

describe('readRateLimitHeaders', () => {
  test("reads OpenAI's request and token budgets, with Go-style reset durations", () => {
    const headers = new Headers({
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-tokens': '29000',
      'x-ratelimit-reset-tokens': '1m2.5s',
    })
    expect(readRateLimitHeaders(headers)).toEqual({
      requests: { limit: 500, remaining: 499, resetMs: 120 },
      tokens: { limit: 30000, remaining: 29000, resetMs: 62_500 },
    })
  })

  test("reads Anthropic's budgets, whose reset is an RFC 3339 time", () => {
    const now = Date.parse('2026-11-26T12:00:00Z')
    const headers = new Headers({
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-11-26T12:00:01.500Z',
      'anthropic-ratelimit-input-tokens-limit': '40000',
      'anthropic-ratelimit-input-tokens-remaining': '39000',
      'anthropic-ratelimit-input-tokens-reset': '2026-11-26T12:00:02Z',
      'retry-after': '2',
    })
    expect(readRateLimitHeaders(headers, now)).toEqual({
      requests: { limit: 50, remaining: 0, resetMs: 1500, resetAt: now + 1500 },
      tokens: { limit: 40000, remaining: 39000, resetMs: 2000, resetAt: now + 2000 },
      retryAfterMs: 2000,
    })
  })

  test("prefers Anthropic's combined `tokens` budget to its input-token one", () => {
    const headers = new Headers({
      'anthropic-ratelimit-tokens-limit': '10',
      'anthropic-ratelimit-tokens-remaining': '5',
      'anthropic-ratelimit-input-tokens-limit': '20',
      'anthropic-ratelimit-input-tokens-remaining': '20',
    })
    expect(readRateLimitHeaders(headers)?.tokens).toEqual({ limit: 10, remaining: 5, resetMs: undefined })
  })

  test('a reply without rate-limit headers, or with unreadable ones, says nothing', () => {
    expect(readRateLimitHeaders(new Headers({ 'content-type': 'application/json' }))).toBeUndefined()
    const broken = new Headers({
      'x-ratelimit-limit-requests': 'lots',
      'x-ratelimit-remaining-requests': '3',
    })
    expect(readRateLimitHeaders(broken)).toBeUndefined()
  })

  test('an unreadable reset leaves the reset unknown but keeps the budget', () => {
    const headers = new Headers({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '3',
      'x-ratelimit-reset-requests': 'soon',
    })
    expect(readRateLimitHeaders(headers)?.requests).toEqual({ limit: 10, remaining: 3, resetMs: undefined })
  })
})
