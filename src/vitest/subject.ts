import type { AgentResult } from '../engine/agent-run.ts'
import { toTranscript, type AgentResultLike } from '../targets/to-transcript.ts'
import type { Transcript, Turn } from '../types.ts'

/**
 * What the matchers accept: an Agent's result, the Transcript a target returned, or any object with an `output`
 * string and the Transcript fields it has (tool calls, usage, cost, latency…).
 */
export type MatcherSubject = AgentResult<unknown> | Transcript | AgentResultLike

/**
 * The one normalizer of the matchers: whatever was received becomes the Transcript the evaluators read. Throws a
 * TypeError naming the matcher when the value is none of the accepted shapes.
 */
export function toSubjectTranscript(received: unknown, matcher: string): Transcript {
  const transcript =
    typeof received === 'object' && received !== null
      ? toTranscript(received, inputOf(received), 0)
      : undefined
  if (transcript === undefined) {
    throw new TypeError(
      `\`${matcher}\` expects an AgentResult, a Transcript or an object with an \`output\` string; received ${kindOf(received)}.`,
    )
  }
  return transcript
}

// an AgentResult has no `input`: the run's input is the last user message of its conversation
function inputOf(value: object): string | Turn[] {
  const { input, messages } = value as { input?: unknown; messages?: unknown }
  if (typeof input === 'string' || Array.isArray(input)) return input as string | Turn[]
  if (!Array.isArray(messages)) return ''
  const users = (messages as { role?: unknown; content?: unknown }[]).filter(
    (message) => message.role === 'user' && typeof message.content === 'string',
  )
  return (users.at(-1)?.content as string | undefined) ?? ''
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object without an `output` string'
  if (typeof value === 'string')
    return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}); pass the whole result, not its output`
  return typeof value
}
