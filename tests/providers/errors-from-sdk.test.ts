import { describe, expect, test } from 'vitest'
import { isRetryableStatus } from '../../src/providers/errors-from-sdk.ts'
import { parseRetryAfterMs } from '../../src/providers/rate-limit-headers.ts'

describe('parseRetryAfterMs', () => {
  test('prefers retry-after-ms, as a float', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '12.5', 'retry-after': '3' }))).toBe(12.5)
  })

  test('reads retry-after in seconds', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000)
  })

  test('reads retry-after as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000)
  })

  test('ignores missing and unreadable values', () => {
    expect(parseRetryAfterMs(new Headers())).toBeUndefined()
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '1' }))).toBe(1000)
  })
})

describe('isRetryableStatus', () => {
  test('retries 408, 409, 429 and every 5xx including 529, and nothing else', () => {
    expect([408, 409, 429, 500, 503, 529].map(isRetryableStatus)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect([400, 401, 403, 404, 422].map(isRetryableStatus)).toEqual([false, false, false, false, false])
  })
})
