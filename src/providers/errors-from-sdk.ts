import { AbortError, ConfigError, ProviderError } from '../errors.ts'
import { createRedactor } from '../util/redact.ts'
import { MalformedReplyError } from './reply-shape.ts'
import { readRateLimitHeaders } from './rate-limit-headers.ts'

/** The error classes an official (Stainless-generated) SDK exports; both SDKs share the shape. */
export interface SdkErrorClasses {
  APIError: abstract new (
    ...args: never[]
  ) => Error & { status: number | undefined; headers: Headers | undefined }
  APIConnectionError: abstract new (...args: never[]) => Error
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error
  APIUserAbortError: abstract new (...args: never[]) => Error
}

/** What `toProviderError` needs to know about the call that failed. */
export interface SdkErrorContext {
  providerId: string
  /** the API's name in messages, e.g. `OpenAI` */
  api: string
  signal: AbortSignal
  sdk: SdkErrorClasses
  /** strings that must never appear in a message (API keys) */
  secrets: readonly (string | undefined)[]
}

const retryableStatuses = new Set([408, 409, 429])
const retryableErrorTypes = new Set([
  'rate_limit_error',
  'overloaded_error',
  'api_error',
  'timeout_error',
  'server_error',
])

/**
 * Maps anything an SDK call threw to a `ProviderError`, or rethrows the abort reason when the caller's signal fired.
 * Fetch and body-parsing failures (reset sockets, malformed JSON, truncated bodies) and replies of the wrong shape
 * (`MalformedReplyError`) count as retryable: a broken gateway's failure is the infrastructure's, never the agent's.
 */
export function toProviderError(error: unknown, context: SdkErrorContext): Error {
  const { sdk, providerId, api } = context
  if (context.signal.aborted) return abortError(context.signal)
  if (error instanceof ProviderError) return error
  // a request this API cannot take (say, a content part it lacks): misuse, which no retry mends
  if (error instanceof ConfigError) return error
  if (error instanceof sdk.APIUserAbortError)
    return new AbortError(`${api} call for ${providerId} was aborted`)
  const clean = (text: string): string => createRedactor({ secrets: context.secrets })(text)
  if (error instanceof MalformedReplyError || error instanceof SyntaxError) {
    return new ProviderError(`${api} sent a malformed reply for ${providerId}: ${clean(error.message)}`, {
      providerId,
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError(`${api} request for ${providerId} timed out`, {
      providerId,
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof sdk.APIConnectionError) {
    const detail = error.cause instanceof Error ? `: ${clean(error.cause.message)}` : ''
    return new ProviderError(`Could not connect to ${api} for ${providerId}${detail}`, {
      providerId,
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof sdk.APIError) {
    const status = error.status
    const type = errorType(error)
    const retryable =
      status === undefined ? type === undefined || retryableErrorTypes.has(type) : isRetryableStatus(status)
    const rateLimit = error.headers ? readRateLimitHeaders(error.headers) : undefined
    const retryAfterMs = rateLimit?.retryAfterMs
    const what = status === undefined ? 'an error mid-stream' : String(status)
    return new ProviderError(`${api} returned ${what} for ${providerId}: ${clean(apiMessage(error))}`, {
      providerId,
      retryable,
      cause: error,
      ...(status === undefined ? {} : { status }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(rateLimit === undefined ? {} : { rateLimit }),
    })
  }
  const message = error instanceof Error ? clean(error.message) : 'unknown error'
  return new ProviderError(`${api} call for ${providerId} failed: ${message}`, {
    providerId,
    retryable: true,
    cause: error,
  })
}

/** Whether an HTTP status is worth another attempt: 408, 409, 429 and every 5xx (including Anthropic's 529). */
export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.has(status) || status >= 500
}

/** The signal's reason as an Error, so an abort propagates as itself and never as a retryable failure. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  if (reason instanceof Error) return reason
  return new AbortError('The model call was aborted', { cause: reason })
}

function errorType(error: Error): string | undefined {
  const type: unknown = (error as { type?: unknown }).type
  return typeof type === 'string' ? type : undefined
}

/** Anthropic's SDK keeps the body's `error.message` apart; OpenAI's puts it after the status. */
function apiMessage(error: Error): string {
  const own: unknown = (error as { apiMessage?: unknown }).apiMessage
  return typeof own === 'string' && own ? own : error.message.replace(/^\d{3} /, '')
}
