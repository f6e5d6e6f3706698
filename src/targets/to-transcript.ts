import type {
  Message,
  StopReason,
  ToolCallRecord,
  Transcript,
  TranscriptSource,
  Turn,
  Usage,
} from '../types.ts'
import { AGENT_STOPS, emptyUsage } from '../types.ts'

/**
 * What a target may return besides a string: an `AgentResult`, a Transcript, or any object with an `output` string
 * and the fields it knows. A field left out is unknown, not empty: `toolCalls` absent is "not reported", `[]` is
 * "called none".
 */
export interface AgentResultLike {
  output: string
  parsed?: unknown
  toolCalls?: ToolCallRecord[] | null
  messages?: Message[]
  usage?: Partial<Usage> | null
  costUsd?: number | null
  iterations?: number | null
  stopReason?: StopReason
  /** what stopped the agent, for one of its own stops; an AgentResult puts it in `error` */
  stopDetail?: string
  /** the agent that answered, after handoffs */
  agent?: string
  /** `engine` for our Agent's results; an adapter's mapper sets `adapter:<framework>` @default 'target' */
  source?: TranscriptSource
  trace?: Transcript['trace']
  error?: string
  durationMs?: number
  latencyMs?: number
}

/**
 * Normalizes what a target returned into a Transcript: a string is the output; an object with an `output` string
 * (an AgentResult, a partial Transcript) keeps the fields it has and leaves the others unknown (null). Returns
 * undefined for anything else.
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
      iterations: null,
      latencyMs,
      messages: messagesOf(input, value),
      output: value,
      source: 'target',
      toolCalls: null,
      usage: null,
    }
  }
  if (!isResultLike(value)) return undefined
  const agentStop = value.stopReason !== undefined && AGENT_STOPS.has(value.stopReason)
  // keys in canonical order, so results.jsonl writes the transcript as it is, without sorting a copy
  const graded = agentStop || value.stopReason === 'guardrail' || value.stopReason === 'interrupted'
  const transcript = {} as Transcript
  if (value.agent !== undefined) transcript.agent = value.agent
  transcript.costUsd = value.costUsd ?? null
  // an agent's own stop, a guardrail or an approval is behaviour to grade (its detail is the evidence); a crash or
  // an abort is not
  if (value.error !== undefined && !graded) transcript.error = value.error
  transcript.input = input
  transcript.iterations = value.iterations ?? null
  transcript.latencyMs = value.latencyMs ?? value.durationMs ?? latencyMs
  transcript.messages = value.messages ?? messagesOf(input, value.output)
  transcript.output = value.output
  if (value.parsed !== undefined) transcript.parsed = value.parsed
  transcript.source = value.source ?? 'target'
  const stopDetail = value.stopDetail ?? (agentStop ? value.error : undefined)
  if (stopDetail !== undefined) transcript.stopDetail = stopDetail
  if (value.stopReason !== undefined) transcript.stopReason = value.stopReason
  transcript.toolCalls = value.toolCalls ?? null
  if (value.trace !== undefined) transcript.trace = value.trace
  transcript.usage = value.usage ? { ...emptyUsage(), ...value.usage } : null
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

/** An object with an own `output` string: a framework result whose `output` is a getter (the AI SDK's) is not one. */
function isResultLike(value: unknown): value is AgentResultLike {
  if (typeof value !== 'object' || value === null) return false
  const output = Object.getOwnPropertyDescriptor(value, 'output')
  return typeof output?.value === 'string'
}
