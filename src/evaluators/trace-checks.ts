import { z } from 'zod'
import { NotReportedError } from '../errors.ts'
import { globToRegExp } from '../tools/policy.ts'
import type { KeptSpan, CaseSpans } from '../traces/span.ts'
import type { Transcript } from '../types.ts'
import { defineEvaluator } from './definition.ts'

const namePattern = z.string().min(1).describe('only spans whose name matches this glob (`*` any text)')

const spanCountShape = z.strictObject({
  name: namePattern.optional(),
  min: z.int().nonnegative().optional(),
  max: z.int().nonnegative().optional(),
})

export const spanCount = defineEvaluator({
  kind: 'span_count',
  description:
    'The case produced between `min` and `max` spans (of those named `name`); errors when its spans were not captured (`trace: true`).',
  options: spanCountShape.refine((options) => options.min !== undefined || options.max !== undefined, {
    message: 'give `min`, `max` or both',
  }),
  shorthand: spanCountShape,
  fromShorthand: (value) => value,
  create: ({ name, min, max }) => ({
    name: 'span_count',
    evaluate: (transcript) => {
      const spans = captured(transcript, 'span_count')
      const count = name === undefined ? spans.total : matching(spans, name, 'span_count').length
      const what = `${String(count)} span${count === 1 ? '' : 's'}${name === undefined ? '' : ` named \`${name}\``}`
      if (min !== undefined && count < min)
        return { pass: false, reason: `${what}, fewer than ${String(min)}` }
      if (max !== undefined && count > max)
        return { pass: false, reason: `${what}, more than ${String(max)}` }
      return { pass: true, reason: `${what}, within ${bounds(min, max)}` }
    },
  }),
})

export const errorSpansLte = defineEvaluator({
  kind: 'error_spans_lte',
  description:
    "At most this many of the case's spans (of those named `name`) ended with an error status; errors when its spans were not captured.",
  options: z.strictObject({ value: z.int().nonnegative(), name: namePattern.optional() }),
  shorthand: z.int().nonnegative(),
  fromShorthand: (value) => ({ value }),
  create: ({ value, name }) => ({
    name: 'error_spans_lte',
    evaluate: (transcript) => {
      const all = captured(transcript, 'error_spans_lte')
      const spans = nonEmpty(matching(all, name, 'error_spans_lte'), name)
      const errors = spans.filter((span) => span.status === 'error')
      // without a name, the counts cover the spans beyond the kept ones too
      const [failed, total] = name === undefined ? [all.errors, all.total] : [errors.length, spans.length]
      const seen = `${String(failed)} of ${String(total)} spans ended with an error`
      if (failed <= value) return { pass: true, reason: `${seen}, within ${String(value)}` }
      const first = errors[0]
      const example = first
        ? `: \`${first.name}\`${first.error === undefined ? '' : ` (${first.error})`}`
        : ''
      return { pass: false, reason: `${seen}, more than ${String(value)}${example}` }
    },
  }),
})

export const spanDurationLte = defineEvaluator({
  kind: 'span_duration_lte',
  description:
    "Every one of the case's spans (of those named `name`) took at most this many milliseconds; errors when its spans were not captured.",
  options: z.strictObject({ value: z.number().nonnegative(), name: namePattern.optional() }),
  shorthand: z.number().nonnegative(),
  fromShorthand: (value) => ({ value }),
  create: ({ value, name }) => ({
    name: 'span_duration_lte',
    evaluate: (transcript) => {
      const all = captured(transcript, 'span_duration_lte')
      const spans = nonEmpty(matching(all, name, 'span_duration_lte'), name)
      const slowest = spans.reduce((a, b) => (b.durationMs > a.durationMs ? b : a))
      // without a name, a span beyond the kept ones may be the slowest
      const longest =
        name === undefined ? Math.max(all.maxDurationMs ?? 0, slowest.durationMs) : slowest.durationMs
      const which = longest === slowest.durationMs ? `\`${slowest.name}\`` : 'one beyond the kept spans'
      const took = `the slowest span, ${which}, took ${String(Math.round(longest))} ms`
      return longest <= value
        ? { pass: true, reason: `${took}, within ${String(value)} ms` }
        : { pass: false, reason: `${took}, over the limit of ${String(value)} ms` }
    },
  }),
})

/** The case's captured spans, or why a trace check cannot run: its spans were not captured. */
function captured(transcript: Transcript, check: string): CaseSpans {
  if (transcript.spans) return transcript.spans
  throw new NotReportedError(
    `\`${check}\` needs the case's spans, and none were captured: turn on trace capture with \`trace: true\` in the case file (or \`--trace\`).`,
  )
}

/** The kept spans named like `name` (all kept ones without it); with a name, errors when some were left out. */
function matching(spans: CaseSpans, name: string | undefined, check: string): KeptSpan[] {
  if (name === undefined) return spans.spans
  if (spans.omitted > 0)
    throw new NotReportedError(
      `\`${check}\`: the case produced ${String(spans.total)} spans and ${String(spans.omitted)} beyond the first ${String(spans.spans.length)} were not kept, so they cannot be checked; split the case, or check fewer spans with \`span_count\` without \`name\`.`,
    )
  const pattern = globToRegExp(name)
  return spans.spans.filter((span) => pattern.test(span.name))
}

/** The spans, or an error when there are none: a check over no spans would claim what was never seen. */
function nonEmpty(spans: KeptSpan[], name: string | undefined): [KeptSpan, ...KeptSpan[]] {
  if (spans.length > 0) return spans as [KeptSpan, ...KeptSpan[]]
  throw new NotReportedError(
    name === undefined
      ? 'trace capture was on and the target sent no spans: instrument it with OpenTelemetry (in process: the global tracer provider, or `experimental_telemetry` for the AI SDK; another process: OTLP/HTTP JSON to `OTEL_EXPORTER_OTLP_ENDPOINT` under `TRACEPARENT`).'
      : `no span is named like \`${name}\`; check the name against the spans in the report.`,
  )
}

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${String(min)}..${String(max)}`
  return min !== undefined ? `at least ${String(min)}` : `at most ${String(max)}`
}
