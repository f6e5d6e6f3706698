import type { FinishReason } from '../../types.ts'
import { splitArguments, splitText, type RenderedReply } from './reply.ts'

/** One SSE frame: Anthropic streams always name the event. */
export interface SseFrame {
  event?: string
  data: unknown
}

export function anthropicMessage(reply: RenderedReply): unknown {
  const content: unknown[] = reply.reasoning
    ? [{ type: 'thinking', thinking: reply.reasoning, signature: signature(reply) }]
    : []
  if (reply.text) content.push({ type: 'text', text: reply.text })
  for (const call of reply.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) })
  }
  return {
    id: `msg_mock_${reply.id}`,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content,
    stop_reason: stopReason(reply.finishReason),
    stop_sequence: null,
    usage: usage(reply, reply.usage.outputTokens),
  }
}

export function anthropicEvents(reply: RenderedReply): SseFrame[] {
  const frame = (event: string, data: Record<string, unknown>): SseFrame => ({
    event,
    data: { type: event, ...data },
  })
  const message = {
    ...(anthropicMessage(reply) as object),
    content: [],
    stop_reason: null,
    usage: usage(reply, 1),
  }
  const frames = [frame('message_start', { message })]
  let index = 0
  if (reply.reasoning) {
    const block = { type: 'thinking', thinking: '', signature: '' }
    frames.push(frame('content_block_start', { index, content_block: block }))
    for (const thinking of splitText(reply.reasoning)) {
      frames.push(frame('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }))
    }
    frames.push(
      frame('content_block_delta', {
        index,
        delta: { type: 'signature_delta', signature: signature(reply) },
      }),
    )
    frames.push(frame('content_block_stop', { index }))
    index++
  }
  if (reply.text) {
    frames.push(frame('content_block_start', { index, content_block: { type: 'text', text: '' } }))
    frames.push({ event: 'ping', data: { type: 'ping' } })
    for (const text of splitText(reply.text)) {
      frames.push(frame('content_block_delta', { index, delta: { type: 'text_delta', text } }))
    }
    frames.push(frame('content_block_stop', { index }))
    index++
  }
  for (const call of reply.toolCalls) {
    const block = { type: 'tool_use', id: call.id, name: call.name, input: {} }
    frames.push(frame('content_block_start', { index, content_block: block }))
    for (const part of splitArguments(call.arguments)) {
      frames.push(
        frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }),
      )
    }
    frames.push(frame('content_block_stop', { index }))
    index++
  }
  frames.push(
    frame('message_delta', {
      delta: { stop_reason: stopReason(reply.finishReason), stop_sequence: null },
      usage: { output_tokens: reply.usage.outputTokens },
    }),
  )
  frames.push(frame('message_stop', {}))
  return frames
}

/** The thinking block's signature: the client must send it back with the block, as the real API checks. */
function signature(reply: RenderedReply): string {
  return `sig_mock_${reply.id}`
}

export function anthropicErrorBody(status: number, message: string, requestId: string): unknown {
  return { type: 'error', error: { type: errorType(status), message }, request_id: requestId }
}

function errorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    504: 'timeout_error',
    529: 'overloaded_error',
  }
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}

/** Anthropic's `input_tokens` excludes the cache reads and writes that the neutral count includes. */
function usage(reply: RenderedReply, outputTokens: number): unknown {
  const { inputTokens, cacheReadTokens, cacheWriteTokens } = reply.usage
  return {
    input_tokens: Math.max(0, inputTokens - cacheReadTokens - cacheWriteTokens),
    output_tokens: outputTokens,
    cache_creation_input_tokens: cacheWriteTokens,
    cache_read_input_tokens: cacheReadTokens,
    cache_creation: { ephemeral_5m_input_tokens: cacheWriteTokens, ephemeral_1h_input_tokens: 0 },
    service_tier: 'standard',
  }
}

function stopReason(reason: FinishReason): string {
  const reasons: Record<FinishReason, string> = {
    stop: 'end_turn',
    length: 'max_tokens',
    tool_calls: 'tool_use',
    content_filter: 'refusal',
    other: 'end_turn',
  }
  return reasons[reason]
}

/** `tool_use.input` is an object on the wire; malformed scripted arguments are sent as `{}`. */
function parseInput(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return {}
  }
}
