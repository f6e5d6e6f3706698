import type { CapturedSpan, SpanValue } from './span.ts'

/** One OTLP/JSON attribute value (`AnyValue`). */
interface AnyValue {
  stringValue?: string
  boolValue?: boolean
  intValue?: string | number
  doubleValue?: number
  arrayValue?: { values?: AnyValue[] }
  kvlistValue?: unknown
  bytesValue?: string
}

interface OtlpSpan {
  traceId?: string
  spanId?: string
  parentSpanId?: string
  name?: string
  startTimeUnixNano?: string | number
  endTimeUnixNano?: string | number
  attributes?: { key?: string; value?: AnyValue }[]
  status?: { code?: number | string; message?: string }
  events?: { name?: string; attributes?: { key?: string; value?: AnyValue }[] }[]
}

/**
 * The spans of an OTLP/JSON `ExportTraceServiceRequest` (what `@opentelemetry/exporter-trace-otlp-http` and
 * every other SDK's `http/json` exporter send). Ids are hex, as the OTLP/JSON encoding says; spans without a trace
 * id, span id or name are left out.
 */
export function spansOfOtlpJson(body: unknown): CapturedSpan[] {
  const spans: CapturedSpan[] = []
  for (const resource of listOf(field(body, 'resourceSpans')))
    for (const scope of listOf(field(resource, 'scopeSpans')))
      for (const raw of listOf(field(scope, 'spans'))) {
        const span = capturedOfOtlp(raw as OtlpSpan)
        if (span) spans.push(span)
      }
  return spans
}

function capturedOfOtlp(raw: OtlpSpan): CapturedSpan | undefined {
  const traceId = hexId(raw.traceId)
  const spanId = hexId(raw.spanId)
  if (traceId === undefined || spanId === undefined || typeof raw.name !== 'string') return undefined
  const start = nanos(raw.startTimeUnixNano)
  const end = nanos(raw.endTimeUnixNano)
  const parentSpanId = hexId(raw.parentSpanId)
  const code = raw.status?.code
  const status =
    code === 2 || code === 'STATUS_CODE_ERROR'
      ? 'error'
      : code === 1 || code === 'STATUS_CODE_OK'
        ? 'ok'
        : 'unset'
  const exception = raw.events
    ?.find((event) => event.name === 'exception')
    ?.attributes?.find((attribute) => attribute.key === 'exception.message')?.value?.stringValue
  const error = raw.status?.message || exception
  return {
    traceId,
    spanId,
    ...(parentSpanId !== undefined && { parentSpanId }),
    name: raw.name,
    startedAt: start / 1e6,
    durationMs: Math.max(0, (end - start) / 1e6),
    status,
    ...(status === 'error' && error !== undefined && error !== '' && { error }),
    attributes: attributesOf(raw.attributes ?? []),
  }
}

function attributesOf(list: readonly { key?: string; value?: AnyValue }[]): Record<string, SpanValue> {
  const attributes: Record<string, SpanValue> = {}
  for (const { key, value } of list) {
    const read = value && valueOf(value)
    if (typeof key === 'string' && read !== undefined && read !== null) attributes[key] = read
  }
  return attributes
}

function valueOf(value: AnyValue): SpanValue | null | undefined {
  if (value.stringValue !== undefined) return value.stringValue
  if (value.boolValue !== undefined) return value.boolValue
  if (value.intValue !== undefined) return Number(value.intValue)
  if (value.doubleValue !== undefined) return value.doubleValue
  if (value.arrayValue !== undefined) {
    const values = (value.arrayValue.values ?? []).map(valueOf)
    return values.map((item) => (Array.isArray(item) || item === undefined ? null : item))
  }
  return undefined
}

/** A hex id as is; a base64 one (some encoders send the protobuf bytes so) as hex. */
function hexId(id: string | undefined): string | undefined {
  if (typeof id !== 'string' || id === '') return undefined
  if (/^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16)) return id.toLowerCase()
  const bytes = Buffer.from(id, 'base64')
  return bytes.length === 16 || bytes.length === 8 ? bytes.toString('hex') : undefined
}

function nanos(value: string | number | undefined): number {
  return value === undefined ? 0 : Number(value)
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
