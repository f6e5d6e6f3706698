import { powerSentence } from '../../baselines/format.ts'
import type { ReportCase, ReportHeader } from '../../report-file/schema.ts'
import type { z } from 'zod'
import type { traceStepSchema } from '../../report-file/case-schema.ts'
import { suiteKey } from '../../report-file/suite-key.ts'
import { reasoningOf } from '../reasoning.ts'
import { partialNote, truncate } from '../text.ts'
import { pageSpansOf, type PageSpans } from './page-spans.ts'

/** Longest string the page embeds; the rest is in report.json. Keeps 10,000 cases well under 15 MB. */
export const PAGE_STRING_CHARS = 10_000
const LABEL_CHARS = 160

/** One (case, trial) as the page shows it; short keys, since 10,000 of them are embedded. */
export interface PageCase {
  /** suite */
  s: string
  id: string
  /** trial, 0-based */
  t: number
  /** the variant, when the suite has variants */
  vr?: string
  /** status */
  st: ReportCase['status']
  /** score */
  sc?: number
  /** duration, ms */
  ms: number
  tags: string[]
  /** verdicts: evaluator, pass, score, reason, skipped, details (JSON text) */
  v: { e: string; p: boolean; sc?: number; r: string; sk?: boolean; d?: string; tn?: number }[]
  /** snapshot: status, file, diff from the stored output */
  sn?: { st: string; f: string; d?: string }
  /** conversation turns: user message, reply, tools called, latency ms; the verdicts with `tn` check them */
  cv?: { u: string; o: string; tl: string[] | null; ms: number }[]
  in?: string
  out?: string
  /** tool calls: name, arguments, result, error (as JSON text), ms; null when the target did not report them */
  tc?: { n: string; a: string; r?: string; err?: string; ms?: number }[] | null
  /** reasoning per model call that showed any: iteration, text */
  rs?: { i: number; t: string }[]
  /** trace: type, start offset ms, duration ms, label */
  tr?: { ty: string; at: number; ms: number; l: string }[]
  /** the captured spans as a waterfall (trace capture) */
  sp?: PageSpans
  /** a pass of which some checks were skipped: "2 of 3 checks ran (skipped: rubric)" */
  pa?: string
  /** error (errored) or skip reason (skipped) */
  err?: string
  why?: string
  /** target latency ms, cost USD (null unknown), tokens in and out (null unknown) */
  lat?: number
  cost?: number | null
  tok?: [number, number] | null
  /** where the transcript came from (`adapter:ai-sdk`, …), and the agent that answered after handoffs */
  src?: string
  ag?: string
  /** baseline transition, when the suite was compared */
  b?: string
  /** a known failure (`expect_fail`): its reason, or '' for `true` */
  xf?: string
}

/**
 * A verdict as the page holds it, its keys set one by one in this order: built with conditional spreads, the
 * objects took JSON.stringify twice as long, and a 10k-case page stringifies 30,000 of them.
 */
function pageVerdict(
  verdict: Extract<ReportCase, { verdicts: unknown }>['verdicts'][number],
): PageCase['v'][number] {
  // `r` follows `sc` when there is one
  const out = { e: verdict.evaluator, p: verdict.pass } as PageCase['v'][number]
  if (verdict.score !== undefined) out.sc = verdict.score
  out.r = text(verdict.reason)
  if (verdict.skipped === true) out.sk = true
  if (verdict.details !== undefined) out.d = json(verdict.details)
  if (verdict.turn !== undefined) out.tn = verdict.turn
  return out
}

/**
 * The page's view of a report header: as in report.json, with the comparisons' case lists left out and each
 * comparison's power as a sentence (`power`).
 */
export function pageHeader(header: ReportHeader): unknown {
  const { comparison, ...rest } = header
  if (!comparison) return rest
  const variants = comparisonVariants(header)
  return {
    ...rest,
    comparison: comparison.map(({ cases: _cases, ...summary }, i) => {
      const variant = variants[i]
      const power = summary.paired === null ? undefined : powerSentence(summary.paired)
      return { ...summary, ...(variant !== undefined && { variant }), ...(power !== undefined && { power }) }
    }),
  }
}

/** (suite, variant) → case id → transition, from the header's comparisons; look up with `suiteKey` */
export function baselineLookup(header: ReportHeader): Map<string, Map<string, string>> {
  const lookup = new Map<string, Map<string, string>>()
  const variants = comparisonVariants(header)
  for (const [i, comparison] of (header.comparison ?? []).entries()) {
    const variant = variants[i]
    // a suite with variants whose comparisons cannot be told apart shows none rather than another variant's
    if (variant === undefined && hasVariants(header, comparison.suite)) continue
    lookup.set(
      suiteKey(comparison.suite, variant),
      new Map(comparison.cases.map((c) => [c.id, c.transition])),
    )
  }
  return lookup
}

/**
 * The variant of each comparison. A comparison names only its suite; the runner compares a suite's variants in run
 * order, so when every variant of a suite has one, they pair up in order. Otherwise the variant is unknown.
 */
function comparisonVariants(header: ReportHeader): (string | undefined)[] {
  const comparisons = header.comparison ?? []
  const next = new Map<string, number>()
  return comparisons.map((comparison) => {
    const variants = header.run.suites.filter((s) => s.name === comparison.suite && s.variant !== undefined)
    const count = comparisons.filter((c) => c.suite === comparison.suite).length
    if (variants.length === 0 || variants.length !== count) return undefined
    const at = next.get(comparison.suite) ?? 0
    next.set(comparison.suite, at + 1)
    return variants[at]?.variant
  })
}

function hasVariants(header: ReportHeader, suite: string): boolean {
  return header.run.suites.some((s) => s.name === suite && s.variant !== undefined)
}

export function pageCase(result: ReportCase, transition: string | undefined): PageCase {
  const page: PageCase = {
    s: result.suite,
    id: result.caseId,
    t: result.trial,
    st: result.status,
    ms: round(result.durationMs),
    tags: result.tags,
    v: [],
  }
  if (result.variant !== undefined) page.vr = result.variant
  if (transition !== undefined) page.b = transition
  if (result.expectFail !== undefined) page.xf = result.expectFail === true ? '' : text(result.expectFail)
  if (result.status === 'skipped') {
    page.why = text(result.reason)
    return page
  }
  if (result.status === 'errored') page.err = text(`${result.error.name}: ${result.error.message}`)
  else page.sc = result.score
  const partial = partialNote(result)
  if (partial !== undefined) page.pa = text(partial)
  page.v = result.verdicts.map(pageVerdict)
  if (result.status !== 'errored' && result.snapshot) {
    const { status, file, diff } = result.snapshot
    page.sn = { st: status, f: file, ...(diff !== undefined && { d: text(diff) }) }
  }
  if (result.turns) {
    page.cv = result.turns.map((turn) => ({
      u: text(turn.user),
      o: text(turn.output),
      tl: turn.tools,
      ms: round(turn.latencyMs),
    }))
  }
  const transcript = result.transcript
  if (!transcript) return page
  page.in = text(typeof transcript.input === 'string' ? transcript.input : json(transcript.input))
  page.out = text(transcript.output)
  page.lat = round(transcript.latencyMs)
  page.cost = transcript.costUsd
  page.tok = transcript.usage && [transcript.usage.inputTokens, transcript.usage.outputTokens]
  if (transcript.source !== undefined) page.src = transcript.source
  if (transcript.agent !== undefined) page.ag = transcript.agent
  if (transcript.toolCalls === null) page.tc = null
  else if (transcript.toolCalls.length > 0) {
    page.tc = transcript.toolCalls.map((call) => ({
      n: call.name,
      a: json(call.args),
      ...(call.result !== undefined && { r: json(call.result) }),
      ...(call.error !== undefined && { err: text(call.error) }),
      ...(call.durationMs !== undefined && { ms: round(call.durationMs) }),
    }))
  }
  const trace = transcript.trace
  const reasoning = reasoningOf(trace)
  if (reasoning.length > 0) page.rs = reasoning.map((step) => ({ i: step.iteration, t: text(step.text) }))
  if (trace && trace.length > 0) {
    const start = Math.min(...trace.map((step) => step.startedAt))
    page.tr = trace.map((step) => ({
      ty: step.type,
      at: round(step.startedAt - start),
      ms: round(step.durationMs),
      l: truncate(traceLabel(step), LABEL_CHARS),
    }))
  }
  const spans = pageSpansOf(transcript)
  if (spans) page.sp = spans
  return page
}

function traceLabel(step: z.infer<typeof traceStepSchema>): string {
  switch (step.type) {
    case 'llm_call':
      return `${step.model} · ${step.usage.inputTokens} → ${step.usage.outputTokens} tokens · ${step.finishReason}`
    case 'cache_hit':
      return `cache hit · ${step.providerId}`
    case 'retry':
      return `retry ${step.attempt} after ${step.delayMs} ms · ${step.error}`
    case 'fallback':
      return `${step.from} → ${step.to} · ${step.error}`
    case 'tool_call':
      return `${step.name}(${json(step.args)})`
    case 'tool_cache_hit':
      return `${step.name} · cached result`
    case 'tool_result':
      return `${step.name} ${step.ok ? 'ok' : `failed: ${step.error ?? ''}`}`
    case 'policy':
      return `${step.name}: ${step.decision} · ${step.reason}`
    case 'structured_retry':
      return `structured output retry ${step.attempt} · ${step.error}`
    case 'limit':
      return `${step.limit} · ${step.reason}`
    case 'error':
      return step.error
    case 'memory_trim':
      return `memory dropped ${step.dropped} messages, kept ${step.kept} (~${step.tokens} tokens)`
    case 'memory_summary':
      return `memory summarised ${step.summarized} messages · ${step.summary}`
    case 'guardrail':
      return `${step.stage} guardrail ${step.name}: ${step.action} · ${step.reason}`
    case 'approval':
      return `${step.name}: ${step.status} · ${step.reason}`
    case 'handoff':
      return `${step.from} → ${step.to}`
    case 'agent_run':
      return `agent ${step.agent} · ${step.stopReason} · ${step.steps.length} steps`
  }
}

function text(value: string): string {
  return truncate(value, PAGE_STRING_CHARS)
}

/** values come from parsed JSON, so only a missing one is not JSON-encodable */
function json(value: unknown): string {
  if (typeof value === 'string') return text(value)
  return text(value === undefined ? 'undefined' : JSON.stringify(value, null, 2))
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10
}

/**
 * JSON that can sit inside `<script type="application/json">`: `<`, `>` and `&` become `\u003c`-style escapes
 * (so `</script>` and `<!--` cannot end or change the element), as do U+2028 and U+2029.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
