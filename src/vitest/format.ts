import { compactJson, preview } from '../evaluators/describe.ts'
import { isPlainObject } from '../util/value-at.ts'
import type { Transcript } from '../types.ts'
import { envRedactor, type Redactor } from '../util/redact.ts'

/** What a matcher returns to `expect.extend`: vitest shows a diff of `actual` and `expected` when both are set. */
export interface MatcherResult {
  pass: boolean
  message: () => string
  actual?: unknown
  expected?: unknown
}

/** The parts of the run a failure message shows below what was expected. */
export type RunPart = 'calls' | 'output' | 'usage'

/** A matcher's outcome before it becomes a message. */
export interface Outcome {
  matcher: string
  /** replaces the `expect(received).matcher(expected)` first line */
  title?: string
  pass: boolean
  /** what passing means, shown when a plain assertion fails: "a call to `search`" */
  expected: string
  /** what failing means, shown when a `.not` assertion fails @default `not ${expected}` */
  notExpected?: string
  /** the evaluators' reasons, one line each */
  reasons: readonly string[]
  show: readonly RunPart[]
  /** rendered by vitest as a diff when a plain assertion fails */
  diff?: { actual: unknown; expected: unknown }
}

/**
 * Turns an outcome into what vitest expects. vitest calls `message` only on failure, so a passing outcome is a
 * failing `.not` assertion: its message says so, and it carries no diff.
 */
export function toMatcherResult(
  outcome: Outcome,
  transcript: Transcript,
  redactor: Redactor = envRedactor(),
): MatcherResult {
  const diff = outcome.pass || outcome.diff === undefined ? undefined : redactedDiff(outcome.diff, redactor)
  return {
    pass: outcome.pass,
    message: () => formatOutcome(outcome, transcript, redactor),
    ...(diff === undefined ? {} : { actual: diff.actual, expected: diff.expected }),
  }
}

/** The diff's values as vitest prints them: secrets redacted. */
export function redactedDiff(
  diff: NonNullable<Outcome['diff']>,
  redactor: Redactor = envRedactor(),
): NonNullable<Outcome['diff']> {
  return redactor.value({ actual: diff.actual, expected: diff.expected })
}

/**
 * The failure message, secrets redacted: what was expected, what the agent did, and the evaluators' reasons. The
 * transcript's values are redacted before they are shortened for the message.
 */
export function formatOutcome(
  outcome: Outcome,
  unredacted: Transcript,
  redactor: Redactor = envRedactor(),
): string {
  const transcript = redactor.value(unredacted)
  const negated = outcome.pass
  const hint = outcome.title ?? `expect(received)${negated ? '.not' : ''}.${outcome.matcher}(expected)`
  const expected = negated ? (outcome.notExpected ?? `not ${outcome.expected}`) : outcome.expected
  const reasons =
    outcome.reasons.length === 1
      ? [`Reason: ${outcome.reasons[0] ?? ''}`]
      : ['Reasons:', ...outcome.reasons.map((reason) => `  ${reason}`)]
  return redactor(
    [hint, '', `Expected: ${expected}`, ...describeRun(transcript, outcome.show), '', ...reasons].join('\n'),
  )
}

/** What the agent did, as message lines: its tool calls with arguments, a trimmed output, usage. */
export function describeRun(transcript: Transcript, parts: readonly RunPart[]): string[] {
  const lines: string[] = []
  if (parts.includes('calls')) lines.push(...describeCalls(transcript))
  if (parts.includes('output')) lines.push(`Output: ${preview(transcript.output, 200)}`)
  if (parts.includes('usage')) lines.push(`Usage: ${describeUsage(transcript)}`)
  if (transcript.error !== undefined) lines.push(`Error: ${transcript.error}`)
  return lines
}

function describeCalls({ toolCalls }: Transcript): string[] {
  if (toolCalls === null) return ['Tool calls: unknown (the target does not report them)']
  if (toolCalls.length === 0) return ['Tool calls: none']
  const shown = toolCalls.slice(0, 10).map((call, index) => {
    const error = call.error === undefined ? '' : ` → error: ${preview(call.error, 80)}`
    return `  ${index + 1}. ${call.name}(${compactJson(call.args, 120)})${error}`
  })
  const more = toolCalls.length > 10 ? [`  … and ${toolCalls.length - 10} more`] : []
  return [`Tool calls (${toolCalls.length}):`, ...shown, ...more]
}

function describeUsage({ latencyMs, costUsd, iterations }: Transcript): string {
  const cost = costUsd === null ? 'cost unknown' : `cost $${Number(costUsd.toFixed(6))}`
  const loops =
    iterations === null
      ? 'iterations unknown'
      : `${iterations} ${iterations === 1 ? 'iteration' : 'iterations'}`
  return `latency ${Math.round(latencyMs)} ms · ${cost} · ${loops}`
}

/**
 * `actual` cut down to the keys `expected` names, recursively, as vitest's `toMatchObject` shows it: the diff then
 * shows only the differences that matter to a deep-subset check.
 */
export function subsetFor(actual: unknown, expected: unknown): unknown {
  if (!isPlainObject(actual) || !isPlainObject(expected)) return actual
  return Object.fromEntries(
    Object.keys(expected)
      .filter((key) => key in actual)
      .map((key) => [key, subsetFor(actual[key], expected[key])]),
  )
}
