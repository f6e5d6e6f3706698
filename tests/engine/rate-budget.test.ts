import { expect, test } from 'vitest'
import { RateBudget } from '../../src/engine/rate-budget.ts'

test('a reset given as a time of day is measured from the call’s sending, so a late reply does not raise the rate', () => {
  // 10 requests a second's budget, empty, whole again 1 s after the call was sent: 9 missing over 1,000 ms refill
  // at 9 / 1000 per ms, so one request is back after ceil(1000 / 9) = 112 ms. Measured from a reply that came 500 ms
  // after sending, the same header would claim 9 / 500 per ms and send the next call after 56 ms, too early.
  const sent = { seq: 0, cost: 1, sentAt: 10_000 }
  const reading = { limit: 10, remaining: 0, resetMs: 500, resetAt: 11_000 }
  const budget = new RateBudget(reading, sent, 10_500)
  expect(budget.waitMs(1, 10_500)).toBe(112)
})

test('a reset given as a duration is the provider’s own, wherever the reply is read', () => {
  const sent = { seq: 0, cost: 1, sentAt: 10_000 }
  const budget = new RateBudget({ limit: 10, remaining: 0, resetMs: 1000 }, sent, 10_500)
  expect(budget.waitMs(1, 10_500)).toBe(112)
})
