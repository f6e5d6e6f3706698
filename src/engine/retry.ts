import { AbortError, ProviderError, TimeoutError } from '../errors.ts'
import type { RetryOptions } from './options.ts'

export interface ResolvedRetry {
  maxRetries: number
  initialDelayMs: number
  maxDelayMs: number
}

export function resolveRetry(options: RetryOptions | undefined): ResolvedRetry {
  return {
    maxRetries: options?.maxRetries ?? 2,
    initialDelayMs: options?.initialDelayMs ?? 500,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
  }
}

/** Whether an error from a model call is worth another attempt. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ProviderError) return error.retryable
  return error instanceof TimeoutError
}

/** The delay before retry number `attempt` (1-based): the server's retry-after, else backoff with jitter. */
export function retryDelayMs(error: unknown, attempt: number, retry: ResolvedRetry): number {
  const requested = error instanceof ProviderError ? error.retryAfterMs : undefined
  if (requested !== undefined && requested >= 0) return Math.min(requested, retry.maxDelayMs)
  const backoff = retry.initialDelayMs * 2 ** (attempt - 1)
  return Math.min(backoff, retry.maxDelayMs) * (1 - Math.random() * 0.25)
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal))
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(abortReason(signal))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason : new AbortError('The run was aborted.')
}
