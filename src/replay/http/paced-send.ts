import type { AdaptiveLimiter } from '../../engine/rate-limit.ts'
import { readRateLimitHeaders } from '../../providers/rate-limit-headers.ts'

/**
 * Sends through the provider's limiter as the engine's model calls go: each attempt waits for a slot and for the
 * budget the provider's rate-limit headers describe; the reply's headers feed the limiter; a 429 halves the calls
 * in flight, pauses for its retry-after and is sent again (up to the limiter's `maxRateLimitRetries`), so the SDK
 * above sees the 429 only when that budget is spent.
 */
export async function pacedSend(
  limiter: AdaptiveLimiter | undefined,
  signal: AbortSignal | undefined,
  send: () => Promise<Response>,
): Promise<Response> {
  if (!limiter) return send()
  const aborted = signal ?? new AbortController().signal
  for (let waited = 0; ; waited++) {
    const slot = await limiter.acquire(aborted)
    let response: Response
    try {
      response = await send()
    } catch (error) {
      slot.done('failed')
      throw error
    }
    const reading = readRateLimitHeaders(response.headers)
    if (response.status !== 429) {
      slot.done(response.ok ? 'ok' : 'failed', reading)
      return response
    }
    slot.done({ rateLimited: true, retryAfterMs: reading?.retryAfterMs }, reading)
    if (waited >= limiter.maxRateLimitRetries) return response
    await response.body?.cancel()
  }
}
