import type { BudgetReading, RateLimitReading } from '../types.ts'
import type { CallOptions } from './provider.ts'

/** Reads a reply's rate-limit headers; `undefined` when it carries none. */
export function readRateLimitHeaders(
  headers: Headers,
  now: number = Date.now(),
): RateLimitReading | undefined {
  const reading: RateLimitReading = {}
  const requests =
    budget(headers, 'x-ratelimit-{}-requests', now) ?? budget(headers, 'anthropic-ratelimit-requests-{}', now)
  // Anthropic's `tokens` is the most restrictive of its token budgets; older replies only send input tokens
  const tokens =
    budget(headers, 'x-ratelimit-{}-tokens', now) ??
    budget(headers, 'anthropic-ratelimit-tokens-{}', now) ??
    budget(headers, 'anthropic-ratelimit-input-tokens-{}', now)
  const retryAfterMs = parseRetryAfterMs(headers, now)
  if (requests) reading.requests = requests
  if (tokens) reading.tokens = tokens
  if (retryAfterMs !== undefined) reading.retryAfterMs = retryAfterMs
  return requests || tokens || retryAfterMs !== undefined ? reading : undefined
}

/** Tells the caller what a successful reply's headers said, when they said anything. */
export function reportRateLimit(headers: Headers, options: CallOptions): void {
  if (!options.onRateLimit) return
  const reading = readRateLimitHeaders(headers)
  if (reading) options.onRateLimit(reading)
}

/** The server's requested delay: `retry-after-ms` (float ms), else `retry-after` (seconds or an HTTP date). */
export function parseRetryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null) {
    const value = Number.parseFloat(ms)
    if (Number.isFinite(value) && value >= 0) return value
  }
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function budget(headers: Headers, pattern: string, now: number): BudgetReading | undefined {
  const limit = Number(headers.get(pattern.replace('{}', 'limit')) ?? Number.NaN)
  const remaining = Number(headers.get(pattern.replace('{}', 'remaining')) ?? Number.NaN)
  if (!Number.isFinite(limit) || !Number.isFinite(remaining) || limit <= 0) return undefined
  const reset = headers.get(pattern.replace('{}', 'reset'))
  const reading: BudgetReading = {
    limit,
    remaining: Math.max(0, remaining),
    resetMs: reset === null ? undefined : resetMsOf(reset, now),
  }
  const resetAt = reset === null ? undefined : timeOfDay(reset)
  if (resetAt !== undefined) reading.resetAt = resetAt
  return reading
}

/** an RFC 3339 time (Anthropic's reset) in epoch ms; undefined for a duration */
function timeOfDay(value: string): number | undefined {
  const trimmed = value.trim()
  if (!/^\d{4}-\d\d-\d\dT/.test(trimmed)) return undefined
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : date
}

const durationPart = /(\d+(?:\.\d+)?)(ms|h|m|s)/g
const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** `6m0s`, `1.5s`, `20ms` (OpenAI), a bare number of seconds, or an RFC 3339 time (Anthropic) → ms from now */
function resetMsOf(value: string, now: number): number | undefined {
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const parts = [...trimmed.matchAll(durationPart)]
  if (parts.length > 0 && parts.map((part) => part[0]).join('') === trimmed) {
    return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (unitMs[unit ?? 's'] ?? 1000), 0)
  }
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
