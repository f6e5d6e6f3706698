import type { FinishReason, ToolCallRequest, Usage } from '../../types.ts'
import type { MockErrorReply, MockFaultReply, MockMessageReply, MockReply, MockRequest } from './types.ts'

/** A message reply with every default filled in, ready to render in either wire format. */
export interface RenderedReply {
  id: string
  text: string
  toolCalls: ToolCallRequest[]
  /** the model's reasoning summary, '' when it gave none */
  reasoning: string
  /** part of `usage.outputTokens` spent reasoning */
  reasoningTokens: number
  usage: Usage
  model: string
  finishReason: FinishReason
}

export function isErrorReply(reply: MockReply): reply is MockErrorReply {
  return 'status' in reply
}

export function isFaultReply(reply: MockReply): reply is MockFaultReply {
  return 'fault' in reply
}

export function renderReply(reply: MockMessageReply, request: MockRequest, idPrefix: string): RenderedReply {
  const text = reply.json === undefined ? (reply.text ?? '') : JSON.stringify(reply.json)
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `${idPrefix}_${request.index}_${i}`,
    name: call.name,
    arguments: call.arguments ?? JSON.stringify(call.args ?? {}),
  }))
  const body = request.body as { model?: unknown; messages?: unknown; input?: unknown }
  const reasoning = reply.reasoning ?? ''
  const reasoningTokens = Math.ceil(reasoning.length / 4)
  const outputChars =
    text.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0)
  const prompt = JSON.stringify(body.messages ?? body.input ?? '')
  const usage: Usage = {
    inputTokens: reply.usage?.inputTokens ?? Math.max(1, Math.ceil(prompt.length / 4)),
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(outputChars / 4)) + reasoningTokens,
    cacheReadTokens: reply.usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: reply.usage?.cacheWriteTokens ?? 0,
  }
  return {
    id: String(request.index),
    text,
    toolCalls,
    reasoning,
    reasoningTokens: Math.min(reasoningTokens, usage.outputTokens),
    usage,
    model: reply.model ?? (typeof body.model === 'string' ? body.model : 'mock-model'),
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
  }
}

/** Splits text into word-sized deltas (whitespace stays with the word before it). */
export function splitText(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : [])
}

/** Splits JSON text into two deltas, so clients must concatenate. */
export function splitArguments(text: string): string[] {
  const middle = Math.ceil(text.length / 2)
  return text.length < 2 ? [text] : [text.slice(0, middle), text.slice(middle)]
}

export function defaultErrorMessage(status: number): string {
  switch (status) {
    case 400:
      return 'Invalid request'
    case 401:
      return 'Invalid API key'
    case 429:
      return 'Rate limit reached for requests'
    case 503:
      return 'Service unavailable'
    case 529:
      return 'Overloaded'
    default:
      return status >= 500 ? 'Internal server error' : `Error ${status}`
  }
}
