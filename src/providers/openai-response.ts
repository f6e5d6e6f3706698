import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { CompletionUsage } from 'openai/resources/completions'
import type { FinishReason, ToolCallRequest, Usage } from '../types.ts'
import type { Completion, CompletionEvent } from './provider.ts'
import { checkOpenAiCompletion } from './reply-shape.ts'

/** Maps a completion; a reply without a message (`choices: []`, `message: null`) throws `MalformedReplyError`. */
export function fromOpenAiCompletion(reply: ChatCompletion): Completion {
  const response = checkOpenAiCompletion(reply)
  const choice = response.choices[0]
  const message = choice?.message
  const toolCalls = (message?.tool_calls ?? []).map((call): ToolCallRequest =>
    call.type === 'function'
      ? { id: call.id, name: call.function.name, arguments: call.function.arguments }
      : { id: call.id, name: call.custom.name, arguments: call.custom.input },
  )
  const refused = !message?.content && Boolean(message?.refusal)
  return {
    message: { text: (refused ? message?.refusal : message?.content) ?? '', toolCalls },
    usage: fromOpenAiUsage(response.usage),
    finishReason: refused ? 'content_filter' : fromOpenAiFinishReason(choice?.finish_reason),
    model: response.model,
  }
}

export function fromOpenAiUsage(usage: CompletionUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cacheReadTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: usage?.prompt_tokens_details?.cache_write_tokens ?? 0,
  }
}

export function fromOpenAiFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'content_filter':
      return reason
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls'
    default:
      return 'other'
  }
}

/**
 * Folds chat completion chunks into events and, at the end, the whole completion. Tolerates a whole tool call in
 * one delta and a repeated `finish_reason` chunk; a stream that never sent `finish_reason` counts as truncated.
 */
export class OpenAiStreamAccumulator {
  private text = ''
  private readonly calls = new Map<number, ToolCallRequest>()
  private finishReason: string | undefined
  private usage: CompletionUsage | undefined
  private model: string

  constructor(model: string) {
    this.model = model
  }

  /** the events one chunk produces */
  push(chunk: ChatCompletionChunk): CompletionEvent[] {
    const events: CompletionEvent[] = []
    if (chunk.model) this.model = chunk.model
    if (chunk.usage) this.usage = chunk.usage
    // a gateway's chunk may leave out `choices` or `delta`: nothing to add, and the missing finish is caught at the end
    const choices = (chunk as { choices?: ChatCompletionChunk['choices'] | null }).choices ?? []
    for (const choice of choices) {
      const delta = (choice as { delta?: ChatCompletionChunk.Choice['delta'] | null }).delta
      if (choice.index !== 0 || typeof delta !== 'object' || delta === null) {
        if (choice.finish_reason) this.finishReason = choice.finish_reason
        continue
      }
      if (delta.content) {
        this.text += delta.content
        events.push({ type: 'text-delta', text: delta.content })
      }
      for (const call of delta.tool_calls ?? []) {
        const current = this.calls.get(call.index) ?? { id: '', name: '', arguments: '' }
        if (call.id) current.id = call.id
        if (call.function?.name) current.name = call.function.name
        const argumentsDelta = call.function?.arguments ?? ''
        current.arguments += argumentsDelta
        this.calls.set(call.index, current)
        events.push({
          type: 'tool-call-delta',
          index: call.index,
          argumentsDelta,
          ...(call.id ? { id: call.id } : {}),
          ...(call.function?.name ? { name: call.function.name } : {}),
        })
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason
    }
    return events
  }

  get finished(): boolean {
    return this.finishReason !== undefined
  }

  completion(): Completion {
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
    return {
      message: { text: this.text, toolCalls },
      usage: fromOpenAiUsage(this.usage),
      finishReason: fromOpenAiFinishReason(this.finishReason),
      model: this.model,
    }
  }
}
