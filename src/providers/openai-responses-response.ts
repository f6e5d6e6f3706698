import type { Response, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses'
import { InternalError, ProviderError } from '../errors.ts'
import type { FinishReason, ReasoningPart, ToolCallRequest, Usage } from '../types.ts'
import type { Completion, CompletionEvent } from './provider.ts'
import { responsesReasoningTag } from './openai-responses-request.ts'

/** A Responses API reply as a completion: its message text, function calls and reasoning summaries. */
export function fromResponse(response: Response, providerId: string): Completion {
  if (response.status === 'failed' || response.error) {
    const message = response.error?.message ?? 'the response failed'
    throw new ProviderError(`OpenAI Responses for ${providerId} failed: ${message}`, {
      providerId,
      retryable: response.error?.code === 'server_error' || response.error?.code === 'rate_limit_exceeded',
    })
  }
  let text = ''
  let refusal = ''
  const toolCalls: ToolCallRequest[] = []
  const reasoning: ReasoningPart[] = []
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') text += part.text
        else refusal += part.refusal
      }
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments })
    } else if (item.type === 'reasoning') {
      const data: Record<string, unknown> = { provider: responsesReasoningTag, id: item.id }
      if (item.encrypted_content) data['encrypted_content'] = item.encrypted_content
      reasoning.push({ text: item.summary.map((part) => part.text).join('\n\n'), data })
    }
  }
  const refused = text === '' && refusal !== ''
  const completion: Completion = {
    message: { text: refused ? refusal : text, toolCalls },
    usage: fromResponsesUsage(response.usage),
    finishReason: refused ? 'content_filter' : finishReasonOf(response, toolCalls.length > 0),
    model: response.model,
  }
  if (reasoning.length > 0) completion.reasoning = reasoning
  return completion
}

export function fromResponsesUsage(usage: ResponseUsage | null | undefined): Usage {
  const details = usage?.input_tokens_details as Partial<ResponseUsage.InputTokensDetails> | undefined
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: details?.cached_tokens ?? 0,
    cacheWriteTokens: details?.cache_write_tokens ?? 0,
  }
}

function finishReasonOf(response: Response, calledTools: boolean): FinishReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason
    return reason === 'content_filter'
      ? 'content_filter'
      : reason === 'max_output_tokens'
        ? 'length'
        : 'other'
  }
  return calledTools ? 'tool_calls' : 'stop'
}

/**
 * Folds Responses stream events into events and, once `response.completed` (or `response.incomplete`) arrives, the
 * whole completion, read from the final response the event carries. An `error` event or `response.failed` throws.
 */
export class ResponsesStreamAccumulator {
  #final: Response | undefined
  readonly #providerId: string
  /** output index of each function call → its index among the calls */
  readonly #calls = new Map<number, number>()

  constructor(providerId: string) {
    this.#providerId = providerId
  }

  push(event: ResponseStreamEvent): CompletionEvent[] {
    switch (event.type) {
      case 'response.output_text.delta':
        return [{ type: 'text-delta', text: event.delta }]
      case 'response.reasoning_summary_text.delta':
        return [{ type: 'reasoning-delta', text: event.delta }]
      case 'response.output_item.added': {
        const item = event.item
        if (item.type !== 'function_call') return []
        const index = this.#calls.size
        this.#calls.set(event.output_index, index)
        return [
          {
            type: 'tool-call-delta',
            index,
            id: item.call_id,
            name: item.name,
            argumentsDelta: item.arguments,
          },
        ]
      }
      case 'response.function_call_arguments.delta': {
        const index = this.#calls.get(event.output_index)
        return index === undefined ? [] : [{ type: 'tool-call-delta', index, argumentsDelta: event.delta }]
      }
      case 'response.completed':
      case 'response.incomplete':
        this.#final = event.response
        return []
      case 'response.failed':
        return [
          this.#fail(event.response.error?.message ?? 'the response failed', event.response.error?.code),
        ]
      case 'error':
        return [this.#fail(event.message, event.code)]
      default:
        return []
    }
  }

  get finished(): boolean {
    return this.#final !== undefined
  }

  completion(): Completion {
    if (!this.#final) throw new InternalError('the stream has not finished')
    return fromResponse(this.#final, this.#providerId)
  }

  #fail(message: string, code: string | null | undefined): never {
    const retryable = code === 'server_error' || code === 'rate_limit_exceeded' || code == null
    throw new ProviderError(`OpenAI Responses stream for ${this.#providerId} failed: ${message}`, {
      providerId: this.#providerId,
      retryable,
    })
  }
}
