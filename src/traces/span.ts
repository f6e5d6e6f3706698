import type { CapturedSpan, CaseSpans, KeptSpan } from '../types.ts'

export type { CapturedSpan, CaseSpans, KeptSpan, SpanValue } from '../types.ts'

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
  const indexOf = new Map(kept.map((span, index) => [span.spanId, index]))
  return {
    traceId: ordered[0]?.traceId ?? '',
    spans: kept.map(({ traceId: _trace, spanId: _span, parentSpanId, ...span }): KeptSpan => {
      const parent = parentSpanId === undefined ? undefined : indexOf.get(parentSpanId)
      return parent === undefined ? span : { ...span, parent }
    }),
    total: ordered.length,
    omitted: ordered.length - kept.length,
    errors,
    maxDurationMs,
  }
}
