/** An attribute value as OpenTelemetry allows it: a scalar or a list of scalars. */
export type SpanValue = string | number | boolean | (string | number | boolean | null)[]

/**
 * One finished span as the run captured it, whichever way it came (the in-process tracer provider, the OTLP
 * receiver, the OpenAI Agents SDK's trace processor): the shape the normalizer, the trace checks and the report read.
 */
export interface CapturedSpan {
  /** 32 hex digits; every span of one case shares it */
  traceId: string
  /** 16 hex digits */
  spanId: string
  /** absent on a root span (and on spans whose parent is the case's own root) */
  parentSpanId?: string
  name: string
  /** ms since the Unix epoch */
  startedAt: number
  durationMs: number
  /** `error` when the span's status said so; `unset` is what most spans say */
  status: 'unset' | 'ok' | 'error'
  /** the status message or the recorded exception's message, on an error span */
  error?: string
  attributes: Record<string, SpanValue>
}

/**
 * The spans a case produced, as its transcript keeps them: in start order, at most `MAX_KEPT_SPANS`; `omitted`
 * counts those left out. The trace checks count over `total`, not over the kept ones.
 */
export interface CaseSpans {
  spans: CapturedSpan[]
  /** spans captured in all, kept or not */
  total: number
  /** spans left out of `spans` (beyond the bound) */
  omitted: number
  /** error spans in all, kept or not */
  errors: number
  /** the longest span's duration in ms, kept or not; null when there was no span */
  maxDurationMs: number | null
}

/** Spans kept per case in results and report.json; the counts still cover all of them. */
export const MAX_KEPT_SPANS = 500

/** The spans of one case, in start order, bounded. */
export function caseSpansOf(spans: readonly CapturedSpan[], limit = MAX_KEPT_SPANS): CaseSpans {
  const ordered = [...spans].sort((a, b) => a.startedAt - b.startedAt)
  let errors = 0
  let maxDurationMs: number | null = null
  for (const span of ordered) {
    if (span.status === 'error') errors++
    maxDurationMs = Math.max(maxDurationMs ?? 0, span.durationMs)
  }
  const kept = ordered.slice(0, limit)
  return { spans: kept, total: ordered.length, omitted: ordered.length - kept.length, errors, maxDurationMs }
}
