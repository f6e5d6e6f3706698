import type { CapturedSpan } from '../span.ts'

/**
 * How one span convention records an agent's steps: which spans are model calls and which are tool calls, and the
 * attribute keys that hold each field, in order of preference (a later key is read when an earlier one is absent).
 * The normalizer reads every convention through this one shape; a new convention is a new table.
 */
export interface ConventionTable {
  /** `gen_ai` (OpenTelemetry GenAI semantic conventions), `ai_sdk` (the AI SDK's `ai.*`), `openinference` */
  name: string
  /** whether the span is written in this convention at all; the first table that claims a span reads it */
  claims(span: CapturedSpan): boolean
  /** the step the span records; undefined for a span that is neither (an agent's outer span, a chain) */
  kindOf(span: CapturedSpan): 'model' | 'tool' | undefined
  model: {
    /** the model id, the response's before the request's */
    id: readonly string[]
    provider: readonly string[]
    inputTokens: readonly string[]
    outputTokens: readonly string[]
    /** part of the input tokens */
    cacheReadTokens: readonly string[]
    cacheWriteTokens: readonly string[]
    /** a finish reason, or a list of them (the first is read) */
    finishReason: readonly string[]
  }
  tool: {
    name: readonly string[]
    callId: readonly string[]
    /** the arguments: JSON text, or an object */
    args: readonly string[]
    /** the result: JSON text, or the text itself */
    result: readonly string[]
  }
}

/** The span's string attribute, when it has one. */
export function stringAttribute(span: CapturedSpan, key: string): string | undefined {
  const value = span.attributes[key]
  return typeof value === 'string' ? value : undefined
}
