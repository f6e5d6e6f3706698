import type { CapturedSpan, SpanValue } from '../../src/traces/span.ts'

let next = 0

/** A finished span of trace `t1` with these attributes; ids and times in order of making. */
export function spanOf(
  name: string,
  attributes: Record<string, SpanValue> = {},
  fields: Partial<CapturedSpan> = {},
): CapturedSpan {
  next++
  return {
    traceId: 'a'.repeat(32),
    spanId: next.toString(16).padStart(16, '0'),
    name,
    startedAt: 1_700_000_000_000 + next,
    durationMs: 5,
    status: 'unset',
    attributes,
    ...fields,
  }
}
