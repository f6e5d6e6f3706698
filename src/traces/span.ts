import type { CapturedSpan, CaseSpans } from '../types.ts'

export type { CapturedSpan, CaseSpans, SpanValue } from '../types.ts'

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
