import type { Message, ToolCallRecord, Transcript, Turn, Usage } from '../types.ts'
import { emptyUsage } from '../types.ts'

/** The part of an `AgentResult` a transcript needs; any object with an `output` string and these fields fits. */
export interface AgentResultLike {
  output: string
  parsed?: unknown
  toolCalls?: ToolCallRecord[]
  messages?: Message[]
  usage?: Partial<Usage>
  costUsd?: number | null
  iterations?: number
  stopReason?: Transcript['stopReason']
  trace?: Transcript['trace']
  error?: string
  durationMs?: number
  latencyMs?: number
}

/**
 * Normalizes what a target returned into a Transcript: a string is the output; an object with an `output` string
 * (an AgentResult, a partial Transcript) keeps the fields it has. Returns undefined for anything else.
 */
export function toTranscript(
  value: unknown,
  input: string | Turn[],
  latencyMs: number,
): Transcript | undefined {
  if (typeof value === 'string') return fromOutput(value, input, latencyMs)
  if (!isResultLike(value)) return undefined
  const transcript = fromOutput(value.output, input, value.latencyMs ?? value.durationMs ?? latencyMs)
  transcript.messages = value.messages ?? transcript.messages
  transcript.toolCalls = value.toolCalls ?? []
  transcript.usage = { ...emptyUsage(), ...value.usage }
  transcript.costUsd = value.costUsd ?? null
  transcript.iterations = value.iterations ?? transcript.iterations
  if (value.parsed !== undefined) transcript.parsed = value.parsed
  if (value.stopReason !== undefined) transcript.stopReason = value.stopReason
  if (value.trace !== undefined) transcript.trace = value.trace
  // an agent stopping on a limit is behaviour to grade; a crash or an abort is not
  if (
    value.error !== undefined &&
    value.stopReason !== 'usage_limit' &&
    value.stopReason !== 'max_iterations'
  ) {
    transcript.error = value.error
  }
  return transcript
}

function fromOutput(output: string, input: string | Turn[], latencyMs: number): Transcript {
  const messages: Message[] = typeof input === 'string' ? [{ role: 'user', content: input }] : [...input]
  messages.push({ role: 'assistant', content: output })
  return {
    input,
    messages,
    output,
    toolCalls: [],
    usage: emptyUsage(),
    costUsd: null,
    latencyMs,
    iterations: 1,
  }
}

function isResultLike(value: unknown): value is AgentResultLike {
  return (
    typeof value === 'object' && value !== null && typeof (value as { output?: unknown }).output === 'string'
  )
}
