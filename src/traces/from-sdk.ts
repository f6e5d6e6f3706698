import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import type { CapturedSpan, SpanValue } from './span.ts'

/**
 * The API's `SpanStatusCode` values, fixed by the OpenTelemetry specification; spelled here so that
 * `traceCaptureProcessor`, exported from the package's index, does not load the API with every import of it
 */
const STATUS = { OK: 1, ERROR: 2 } as const

/** A span the OpenTelemetry SDK finished in this process, as the run keeps it. */
export function capturedOfSdk(span: ReadableSpan): CapturedSpan {
  const { traceId, spanId } = span.spanContext()
  const startedAt = span.startTime[0] * 1000 + span.startTime[1] / 1e6
  const durationMs = span.duration[0] * 1000 + span.duration[1] / 1e6
  const code: number = span.status.code
  const status = code === STATUS.ERROR ? 'error' : code === STATUS.OK ? 'ok' : 'unset'
  const exception = span.events.find((event) => event.name === 'exception')?.attributes?.['exception.message']
  const error = span.status.message ?? (typeof exception === 'string' ? exception : undefined)
  const attributes: Record<string, SpanValue> = {}
  for (const [key, value] of Object.entries(span.attributes))
    if (value !== undefined) attributes[key] = value as SpanValue
  return {
    traceId,
    spanId,
    ...(span.parentSpanContext && { parentSpanId: span.parentSpanContext.spanId }),
    name: span.name,
    startedAt,
    durationMs,
    status,
    ...(status === 'error' && error !== undefined && error !== '' && { error }),
    attributes,
  }
}
