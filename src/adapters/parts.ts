import type { FinishReason, StopReason, ToolCallRecord, TraceStep, Usage } from '../types.ts'
import { addUsage } from '../types.ts'
import { costOfCalls } from './cost.ts'
import type { TranscriptParts } from './adapter.ts'

/** One model call as a framework reports it, before it becomes an `llm_call` trace step. */
export interface ModelCall {
  /** the provider as the framework names it (`openai.chat`, `openai`), when it says */
  provider?: string | undefined
  model: string
  usage: Usage | null
  finishReason: FinishReason
  toolCalls: number
  /** ms since the Unix epoch, when the framework says; else the run's start */
  startedAt?: number | undefined
  durationMs?: number | undefined
}

/** A framework's finish reason (`stop`, `tool-calls`, `tool_calls`, `length`, `max_tokens`, `content-filter`…). */
export function finishReasonOf(raw: unknown): FinishReason {
  switch (typeof raw === 'string' ? raw.toLowerCase().replaceAll('-', '_') : '') {
    case 'stop':
    case 'end_turn':
    case 'completed':
      return 'stop'
    case 'tool_calls':
    case 'tool_use':
    case 'function_call':
      return 'tool_calls'
    case 'length':
    case 'max_tokens':
    case 'max_output_tokens':
      return 'length'
    case 'content_filter':
    case 'refusal':
      return 'content_filter'
    default:
      return 'other'
  }
}

/** Why a loop that ended on this finish reason stopped, and the evidence for a stop of the agent's own. */
export function stopOfFinish(
  finish: FinishReason,
  steps: number,
): { stopReason?: StopReason; stopDetail?: string } {
  switch (finish) {
    case 'stop':
      return { stopReason: 'final' }
    case 'length':
      return {
        stopReason: 'truncated',
        stopDetail: "the reply was cut off at the model's token limit (finish reason `length`)",
      }
    case 'content_filter':
      return { stopReason: 'content_filter', stopDetail: 'the content filter stopped the reply' }
    case 'tool_calls':
      return {
        stopReason: 'max_iterations',
        stopDetail: `the loop stopped after ${String(steps)} model calls while the model was still calling tools, without a final answer (its step limit, e.g. \`stopWhen\` or \`maxSteps\`)`,
      }
    case 'other':
      return {}
  }
}

/** Sums the usage of the calls; null when any call's usage is unknown (or there was no call). */
export function totalUsage(usages: readonly (Usage | null)[]): Usage | null {
  if (usages.length === 0) return null
  let total: Usage | null = { cacheReadTokens: 0, cacheWriteTokens: 0, inputTokens: 0, outputTokens: 0 }
  for (const usage of usages) total = total === null || usage === null ? null : addUsage(total, usage)
  return total
}

/** Our usage from token counts as frameworks give them; null when neither input nor output is known. */
export function usageOf(counts: {
  input?: number | undefined
  output?: number | undefined
  cacheRead?: number | undefined
  cacheWrite?: number | undefined
}): Usage | null {
  if (counts.input === undefined && counts.output === undefined) return null
  return {
    cacheReadTokens: counts.cacheRead ?? 0,
    cacheWriteTokens: counts.cacheWrite ?? 0,
    inputTokens: counts.input ?? 0,
    outputTokens: counts.output ?? 0,
  }
}

/** The model calls as `llm_call` trace steps, in order. */
export function traceOf(calls: readonly ModelCall[], runStart: number): TraceStep[] {
  return calls.map((call, index) => ({
    type: 'llm_call',
    startedAt: call.startedAt ?? runStart,
    durationMs: call.durationMs ?? 0,
    iteration: index + 1,
    providerId: call.provider ?? 'unknown',
    model: call.model,
    usage: call.usage ?? { cacheReadTokens: 0, cacheWriteTokens: 0, inputTokens: 0, outputTokens: 0 },
    finishReason: call.finishReason,
    toolCalls: call.toolCalls,
  }))
}

/** Transcript parts with the cost of their model calls (null when any call's price or usage is unknown). */
export async function withCost(
  parts: Omit<TranscriptParts, 'costUsd'>,
  calls: readonly ModelCall[],
): Promise<TranscriptParts> {
  const costUsd = await costOfCalls(
    calls.map((call) => ({
      model: call.provider === undefined ? call.model : `${call.provider}/${call.model}`,
      usage: call.usage,
    })),
  )
  return { ...parts, costUsd }
}

/** A tool's result or error as the text a conversation carries. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (value instanceof Error) return value.message
  try {
    // undefined, functions and symbols have no JSON text
    const json = JSON.stringify(value) as unknown
    return typeof json === 'string' ? json : String(value)
  } catch {
    return String(value)
  }
}

/** Tool call records in call order, each with the result or error matched by call id. */
export class ToolCallLog {
  readonly #records: ToolCallRecord[] = []
  readonly #byId = new Map<string, ToolCallRecord>()

  call(id: string, name: string, args: unknown): void {
    if (this.#byId.has(id)) return
    const record: ToolCallRecord = { id, name, args }
    this.#records.push(record)
    this.#byId.set(id, record)
  }

  result(id: string, result: unknown): void {
    const record = this.#byId.get(id)
    if (record) record.result = result
  }

  error(id: string, error: string): void {
    const record = this.#byId.get(id)
    if (record) record.error = error
  }

  duration(id: string, ms: number): void {
    const record = this.#byId.get(id)
    if (record) record.durationMs = ms
  }

  get records(): ToolCallRecord[] {
    return this.#records
  }
}
