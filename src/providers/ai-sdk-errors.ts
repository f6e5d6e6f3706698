import { AbortError, ConfigError, ProviderError } from '../errors.ts'
import { createRedactor } from '../util/redact.ts'
import { abortError, isRetryableStatus } from './errors-from-sdk.ts'
import { readRateLimitHeaders } from './rate-limit-headers.ts'

/** What `fromAiSdkError` needs to know about the call that failed. */
export interface AiSdkErrorContext {
  providerId: string
  signal: AbortSignal
  /** strings that must never appear in a message (API keys) */
  secrets: readonly (string | undefined)[]
}

/** The AI SDK marks its errors with `Symbol.for('vercel.ai.error.<name>')`, so any copy of the package is known. */
function isAiSdkError(error: unknown, name: string): error is Error & Record<string, unknown> {
  if (!(error instanceof Error)) return false
  return (error as unknown as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.${name}`)] === true
}

const malformed = [
  'AI_InvalidResponseDataError',
  'AI_JSONParseError',
  'AI_TypeValidationError',
  'AI_EmptyResponseBodyError',
]

/**
 * Maps what an AI SDK model threw to our errors: `APICallError` by its status, `isRetryable` and retry-after
 * headers; a missing key or setting (`LoadAPIKeyError`, `LoadSettingError`) and an unsupported feature as a
 * `ConfigError` the user fixes; a reply of the wrong shape as retryable; an abort of our signal as its reason (an
 * abort the package made itself is a retryable failure like any other).
 */
export function fromAiSdkError(error: unknown, context: AiSdkErrorContext): Error {
  const { providerId } = context
  if (context.signal.aborted) return abortError(context.signal)
  if (error instanceof ProviderError || error instanceof ConfigError || error instanceof AbortError)
    return error
  const clean = (text: string): string => createRedactor({ secrets: context.secrets })(text)
  if (isAiSdkError(error, 'AI_APICallError')) return fromApiCallError(error, providerId, clean)
  if (isAiSdkError(error, 'AI_LoadAPIKeyError') || isAiSdkError(error, 'AI_LoadSettingError')) {
    return new ConfigError(`Cannot call \`${providerId}\`: ${clean(error.message)}`, { cause: error })
  }
  if (isAiSdkError(error, 'AI_UnsupportedFunctionalityError')) {
    return new ConfigError(`\`${providerId}\` cannot do what was asked: ${clean(error.message)}`, {
      cause: error,
    })
  }
  if (malformed.some((name) => isAiSdkError(error, name))) {
    return new ProviderError(`${providerId} sent a malformed reply: ${clean((error as Error).message)}`, {
      providerId,
      retryable: true,
      cause: error,
    })
  }
  // an error part mid-stream carries the API's error object, not an Error
  const message = error instanceof Error ? error.message : describe(error)
  return new ProviderError(`The call to ${providerId} failed: ${clean(message)}`, {
    providerId,
    retryable: true,
    cause: error,
  })
}

function fromApiCallError(
  error: Error & Record<string, unknown>,
  providerId: string,
  clean: (text: string) => string,
): ProviderError {
  const status = typeof error['statusCode'] === 'number' ? error['statusCode'] : undefined
  // a body that broke off or would not parse after a 200: the gateway's failure, worth another try
  if (status !== undefined && status < 300) {
    return new ProviderError(`${providerId} sent a malformed reply: ${clean(error.message)}`, {
      providerId,
      retryable: true,
      cause: error,
    })
  }
  const retryable =
    typeof error['isRetryable'] === 'boolean'
      ? error['isRetryable']
      : status === undefined || isRetryableStatus(status)
  const headers = toHeaders(error['responseHeaders'])
  const rateLimit = headers ? readRateLimitHeaders(headers) : undefined
  const what = status === undefined ? 'could not be reached' : `returned ${status}`
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return new ProviderError(`${providerId} ${what}: ${clean(error.message + cause)}`, {
    providerId,
    retryable,
    cause: error,
    ...(status === undefined ? {} : { status }),
    ...(rateLimit?.retryAfterMs === undefined ? {} : { retryAfterMs: rateLimit.retryAfterMs }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
  })
}

/** The AI SDK keeps headers as a plain record. */
export function toHeaders(record: unknown): Headers | undefined {
  if (typeof record !== 'object' || record === null) return undefined
  const headers = new Headers()
  for (const [name, value] of Object.entries(record)) {
    if (typeof value === 'string') headers.set(name, value)
  }
  return headers
}

function describe(error: unknown): string {
  if (typeof error === 'string') return error
  const message = (error as { message?: unknown } | null)?.message
  if (typeof message === 'string') return message
  try {
    return JSON.stringify(error)
  } catch {
    return 'unknown error'
  }
}
