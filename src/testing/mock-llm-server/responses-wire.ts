import type { FinishReason } from '../../types.ts'
import type { SseFrame } from './anthropic-wire.ts'
import { splitArguments, splitText, type RenderedReply } from './reply.ts'

const created = 1760000000

type Item = Record<string, unknown> & { type: string; id: string }

/** The body of a `POST /v1/responses` reply: a `Response` object echoing the request's settings. */
export function openAiResponse(reply: RenderedReply, request: unknown): Record<string, unknown> {
  return envelope(reply, request, {
    status: status(reply.finishReason),
    completed_at: created + 1,
    incomplete_details: incompleteReason(reply.finishReason),
    output: outputItems(reply, request),
    usage: usage(reply),
  })
}

/**
 * The events of a streamed reply, as the real API orders them: created, in_progress, then per output item
 * `output_item.added` → its deltas → `…done` → `output_item.done`, and a closing `response.completed` (or
 * `response.incomplete`) that carries the whole response with its usage.
 */
export function openAiResponseEvents(reply: RenderedReply, request: unknown): SseFrame[] {
  const frames: SseFrame[] = []
  const emit = (type: string, data: Record<string, unknown>): void => {
    frames.push({ event: type, data: { type, sequence_number: frames.length, ...data } })
  }
  const pending = envelope(reply, request, {
    status: 'in_progress',
    completed_at: null,
    incomplete_details: null,
    output: [],
    usage: null,
  })
  emit('response.created', { response: pending })
  emit('response.in_progress', { response: pending })
  outputItems(reply, request).forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex }
    emit('response.output_item.added', { output_index: outputIndex, item: opened(item) })
    if (item.type === 'reasoning') {
      const summary = item.summary as { text: string }[]
      summary.forEach(({ text }, summaryIndex) => {
        const part = { type: 'summary_text', text: '' }
        emit('response.reasoning_summary_part.added', { ...at, summary_index: summaryIndex, part })
        for (const delta of splitText(text)) {
          emit('response.reasoning_summary_text.delta', { ...at, summary_index: summaryIndex, delta })
        }
        emit('response.reasoning_summary_text.done', { ...at, summary_index: summaryIndex, text })
        emit('response.reasoning_summary_part.done', {
          ...at,
          summary_index: summaryIndex,
          part: { ...part, text },
        })
      })
    } else if (item.type === 'message') {
      const text = reply.text
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] }
      emit('response.content_part.added', { ...at, content_index: 0, part })
      for (const delta of splitText(text)) {
        emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] })
      }
      emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] })
      emit('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } })
    } else {
      const text = item.arguments as string
      for (const delta of splitArguments(text))
        emit('response.function_call_arguments.delta', { ...at, delta })
      emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: text })
    }
    emit('response.output_item.done', { output_index: outputIndex, item })
  })
  const final = openAiResponse(reply, request)
  emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })
  return frames
}

/** A mid-stream failure as the Responses API sends it: an `error` event (no `error` key, so SDKs yield it). */
export function openAiResponseErrorEvent(): SseFrame {
  return {
    event: 'error',
    data: {
      type: 'error',
      code: 'server_error',
      message: 'The server had an error mid-stream',
      param: null,
      sequence_number: 0,
    },
  }
}

/**
 * Reasoning first (the model thinks before it answers), then the message, then the function calls. The reasoning
 * carries an opaque `encrypted_content` when the request's `include` asks for `reasoning.encrypted_content`.
 */
function outputItems(reply: RenderedReply, request: unknown): Item[] {
  const items: Item[] = []
  if (reply.reasoning) {
    const include = (request as { include?: unknown } | null)?.include
    const encrypted = Array.isArray(include) && include.includes('reasoning.encrypted_content')
    items.push({
      type: 'reasoning',
      id: `rs_mock_${reply.id}`,
      summary: [{ type: 'summary_text', text: reply.reasoning }],
      encrypted_content: encrypted ? `enc_mock_${Buffer.from(reply.reasoning).toString('base64')}` : null,
      status: 'completed',
    })
  }
  if (reply.text || reply.toolCalls.length === 0) {
    items.push({
      type: 'message',
      id: `msg_mock_${reply.id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }],
    })
  }
  reply.toolCalls.forEach((call, index) => {
    items.push({
      type: 'function_call',
      id: `fc_mock_${reply.id}_${index}`,
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    })
  })
  return items
}

/** An item as `output_item.added` announces it: still in progress, its text or arguments not yet sent. */
function opened(item: Item): Item {
  if (item.type === 'reasoning') return { ...item, summary: [], status: 'in_progress' }
  if (item.type === 'message') return { ...item, content: [], status: 'in_progress' }
  return { ...item, arguments: '', status: 'in_progress' }
}

function envelope(
  reply: RenderedReply,
  request: unknown,
  state: Record<string, unknown>,
): Record<string, unknown> {
  const body = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>
  return {
    id: `resp_mock_${reply.id}`,
    object: 'response',
    created_at: created,
    model: reply.model,
    error: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: body.metadata ?? {},
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? { effort: null, summary: null },
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    user: null,
    ...state,
  }
}

function usage(reply: RenderedReply): unknown {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = reply.usage
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: cacheReadTokens, cache_write_tokens: cacheWriteTokens },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reply.reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  }
}

function status(reason: FinishReason): string {
  return reason === 'length' || reason === 'content_filter' ? 'incomplete' : 'completed'
}

function incompleteReason(reason: FinishReason): { reason: string } | null {
  if (reason === 'length') return { reason: 'max_output_tokens' }
  if (reason === 'content_filter') return { reason: 'content_filter' }
  return null
}
