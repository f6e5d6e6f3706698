import { jsonOrText } from '../util/json-or-text.ts'
import { costOfCalls } from '../adapters/cost.ts'
import { finishReasonOf, ToolCallLog, totalUsage, usageOf, type ModelCall } from '../adapters/parts.ts'
import type { ToolCallRecord, TraceStep, Transcript, Usage } from '../types.ts'
import { aiSdk } from './conventions/ai-sdk.ts'
import type { ConventionTable } from './conventions/convention.ts'
import { genAi } from './conventions/gen-ai.ts'
import { openInference } from './conventions/openinference.ts'
import type { CapturedSpan, SpanValue } from './span.ts'

/** The conventions in the order they are tried: the specific ones first, as AI SDK spans also carry `gen_ai.*`. */
export const CONVENTIONS: readonly ConventionTable[] = [aiSdk, openInference, genAi]

/** What a case's spans say about its run; a field they say nothing of is null. */
export interface TraceParts {
  toolCalls: ToolCallRecord[] | null
  usage: Usage | null
  costUsd: number | null
  iterations: number | null
  trace: TraceStep[]
}

/**
 * Reads a case's spans through the convention tables. Tool calls are known (`[]` included) once a model or tool
 * span was recognised; usage, cost and iterations once a model span was, and only when every model span reports
 * its tokens and the model's price is known.
 */
export async function partsOfSpans(spans: readonly CapturedSpan[]): Promise<TraceParts> {
  const ordered = [...spans].sort((a, b) => a.startedAt - b.startedAt)
  const tools = new ToolCallLog()
  const calls: ModelCall[] = []
  const trace: TraceStep[] = []
  let recognised = false
  for (const span of ordered) {
    const table = CONVENTIONS.find((convention) => convention.claims(span))
    const kind = table?.kindOf(span)
    if (!table || !kind) continue
    recognised = true
    if (kind === 'model') {
      const call = modelCallOf(span, table)
      calls.push(call)
      trace.push(llmStep(call, calls.length))
    } else {
      const id = String(first(span, table.tool.callId) ?? span.spanId)
      const name = String(first(span, table.tool.name) ?? span.name)
      const args = valueOf(first(span, table.tool.args)) ?? {}
      const result = first(span, table.tool.result)
      tools.call(id, name, args)
      if (span.status === 'error') tools.error(id, span.error ?? 'the tool span ended with an error')
      else if (result !== undefined) tools.result(id, valueOf(result))
      tools.duration(id, span.durationMs)
      trace.push({
        type: 'tool_call',
        startedAt: span.startedAt,
        durationMs: span.durationMs,
        callId: id,
        name,
        args,
      })
    }
  }
  countToolCalls(trace)
  if (!recognised) return { toolCalls: null, usage: null, costUsd: null, iterations: null, trace }
  const usage = totalUsage(calls.map((call) => call.usage))
  const costUsd = await costOfCalls(
    calls.map((call) => ({
      model: call.provider === undefined ? call.model : `${call.provider}/${call.model}`,
      usage: call.usage,
    })),
  )
  return {
    toolCalls: tools.records,
    usage,
    costUsd,
    iterations: calls.length === 0 ? null : calls.length,
    trace,
  }
}

/**
 * The target's transcript with what its spans say filled in where it said nothing: the target's own fields win
 * (our engine and the adapters report everything), spans fill only unknown (null) ones. The source becomes
 * `traces` when the spans supplied the tool calls.
 */
export function withTraceParts(transcript: Transcript, parts: TraceParts): Transcript {
  const filled: Transcript = {
    ...transcript,
    toolCalls: transcript.toolCalls ?? parts.toolCalls,
    usage: transcript.usage ?? parts.usage,
    costUsd: transcript.costUsd ?? (transcript.usage === null ? parts.costUsd : null),
    iterations: transcript.iterations ?? parts.iterations,
  }
  if (transcript.trace === undefined && parts.trace.length > 0) filled.trace = parts.trace
  if (transcript.toolCalls === null && parts.toolCalls !== null && transcript.source === 'target')
    filled.source = 'traces'
  return filled
}

function modelCallOf(span: CapturedSpan, table: ConventionTable): ModelCall {
  const { model } = table
  const provider = first(span, model.provider)
  const finish = first(span, model.finishReason)
  return {
    ...(provider !== undefined && { provider: String(provider) }),
    model: String(first(span, model.id) ?? 'unknown'),
    usage: usageOf({
      input: numberOf(first(span, model.inputTokens)),
      output: numberOf(first(span, model.outputTokens)),
      cacheRead: numberOf(first(span, model.cacheReadTokens)),
      cacheWrite: numberOf(first(span, model.cacheWriteTokens)),
    }),
    finishReason: finishReasonOf(Array.isArray(finish) ? finish[0] : finish),
    toolCalls: 0,
    startedAt: span.startedAt,
    durationMs: span.durationMs,
  }
}

function llmStep(call: ModelCall, iteration: number): TraceStep {
  return {
    type: 'llm_call',
    startedAt: call.startedAt ?? 0,
    durationMs: call.durationMs ?? 0,
    iteration,
    providerId: call.provider ?? 'unknown',
    model: call.model,
    usage: call.usage ?? { cacheReadTokens: 0, cacheWriteTokens: 0, inputTokens: 0, outputTokens: 0 },
    finishReason: call.finishReason,
    toolCalls: 0,
  }
}

/** Each model call's tool calls: those that started after it and before the next model call. */
function countToolCalls(trace: TraceStep[]): void {
  let current: Extract<TraceStep, { type: 'llm_call' }> | undefined
  for (const step of trace) {
    if (step.type === 'llm_call') current = step
    else if (step.type === 'tool_call' && current) current.toolCalls++
  }
}

function first(span: CapturedSpan, keys: readonly string[]): SpanValue | undefined {
  for (const key of keys) {
    const value = span.attributes[key]
    if (value !== undefined) return value
  }
  return undefined
}

function numberOf(value: SpanValue | undefined): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined
}

/** JSON text as its value; other text and values as they are. */
function valueOf(value: SpanValue | undefined): unknown {
  return typeof value === 'string' ? jsonOrText(value) : value
}
