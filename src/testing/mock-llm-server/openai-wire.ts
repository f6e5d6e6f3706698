import type { FinishReason } from '../../types.ts'
import { splitArguments, splitText, type RenderedReply } from './reply.ts'

const created = 1760000000

export function openAiCompletion(reply: RenderedReply): unknown {
  return {
    id: `chatcmpl-mock-${reply.id}`,
    object: 'chat.completion',
    created,
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.toolCalls.length > 0 && !reply.text ? null : reply.text,
          refusal: null,
          ...(reply.toolCalls.length > 0
            ? {
                tool_calls: reply.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason(reply.finishReason),
      },
    ],
    usage: usage(reply),
  }
}

/** The `data:` payloads of a stream, without the closing `[DONE]`. */
export function openAiChunks(reply: RenderedReply, includeUsage: boolean): unknown[] {
  const chunk = (delta: Record<string, unknown>, reason: string | null = null): unknown => ({
    id: `chatcmpl-mock-${reply.id}`,
    object: 'chat.completion.chunk',
    created,
    model: reply.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: reason }],
    ...(includeUsage ? { usage: null } : {}),
  })
  const chunks = [chunk({ role: 'assistant', content: '' })]
  for (const text of splitText(reply.text)) chunks.push(chunk({ content: text }))
  reply.toolCalls.forEach((call, index) => {
    const [first = '', ...rest] = splitArguments(call.arguments)
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: first } }
    chunks.push(chunk({ tool_calls: [head] }))
    for (const part of rest) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }))
  })
  chunks.push(chunk({}, finishReason(reply.finishReason)))
  if (includeUsage) {
    chunks.push({
      id: `chatcmpl-mock-${reply.id}`,
      object: 'chat.completion.chunk',
      created,
      model: reply.model,
      choices: [],
      usage: usage(reply),
    })
  }
  return chunks
}

export function openAiErrorBody(status: number, message: string): unknown {
  const code = status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : null
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error'
  return { error: { message, type, param: null, code } }
}

function usage(reply: RenderedReply): unknown {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = reply.usage
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: {
      cached_tokens: cacheReadTokens,
      cache_write_tokens: cacheWriteTokens,
      audio_tokens: 0,
    },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  }
}

function finishReason(reason: FinishReason): string {
  return reason === 'other' ? 'stop' : reason
}
