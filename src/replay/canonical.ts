import { createHash } from 'node:crypto'
import { canonicalJson } from '../util/canonical-json.ts'
import type { CompletionRequest } from '../providers/provider.ts'

/**
 * The request as a cassette keys it: `undefined` dropped, and the ids of tool calls (which a live API makes up
 * afresh on every call) replaced by their position, so a re-run sends the same canonical request.
 */
export function canonicalRequest(request: CompletionRequest): unknown {
  const ids = new Map<string, string>()
  const idOf = (id: string): string => {
    let stable = ids.get(id)
    if (stable === undefined) {
      stable = `call_${ids.size + 1}`
      ids.set(id, stable)
    }
    return stable
  }
  const messages = request.messages.map((message) => {
    if (message.role === 'assistant' && message.toolCalls)
      return { ...message, toolCalls: message.toolCalls.map((call) => ({ ...call, id: idOf(call.id) })) }
    if (message.role === 'tool') return { ...message, toolCallId: idOf(message.toolCallId) }
    return message
  })
  return JSON.parse(canonicalJson({ ...request, messages })) as unknown
}

/** sha256 of the canonical JSON of `value`, in hex. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex')
}
