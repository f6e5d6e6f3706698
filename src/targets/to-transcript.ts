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
  if (typeof value === 'string') {
    return {
      costUsd: null,
      input,
      iterations: 1,
      latencyMs,
      messages: messagesOf(input, value),
      output: value,
      toolCalls: [],
      usage: emptyUsage(),
    }
  }
  if (!isResultLike(value)) return undefined
  // keys in canonical order, so results.jsonl writes the transcript as it is, without sorting a copy
  const transcript = { costUsd: value.costUsd ?? null } as Transcript
  // an agent stopping on a limit, a guardrail or an approval is behaviour to grade; a crash or an abort is not
  if (
    value.error !== undefined &&
    value.stopReason !== 'usage_limit' &&
    value.stopReason !== 'max_iterations' &&
    value.stopReason !== 'guardrail' &&
    value.stopReason !== 'interrupted'
  ) {
    transcript.error = value.error
  }
  transcript.input = input
  transcript.iterations = value.iterations ?? 1
  transcript.latencyMs = value.latencyMs ?? value.durationMs ?? latencyMs
  transcript.messages = value.messages ?? messagesOf(input, value.output)
  transcript.output = value.output
  if (value.parsed !== undefined) transcript.parsed = value.parsed
  if (value.stopReason !== undefined) transcript.stopReason = value.stopReason
  transcript.toolCalls = value.toolCalls ?? []
  if (value.trace !== undefined) transcript.trace = value.trace
  transcript.usage = value.usage ? { ...emptyUsage(), ...value.usage } : emptyUsage()
  return transcript
}

function messagesOf(input: string | Turn[], output: string): Message[] {
  const messages: Message[] =
    typeof input === 'string'
      ? [{ content: input, role: 'user' }]
      : input.map(({ content, role }) => ({ content, role }))
  messages.push({ content: output, role: 'assistant' })
  return messages
}

function isResultLike(value: unknown): value is AgentResultLike {
  return (
    typeof value === 'object' && value !== null && typeof (value as { output?: unknown }).output === 'string'
  )
}
