import type {
  Message as AnthropicMessage,
  MessageDeltaUsage,
  RawMessageStreamEvent,
  Usage as AnthropicUsage,
} from '@anthropic-ai/sdk/resources/messages'
import type { FinishReason, ToolCallRequest, Usage } from '../types.ts'
import type { Completion, CompletionEvent } from './provider.ts'
import { checkAnthropicMessage, MalformedReplyError } from './reply-shape.ts'

type UsageCounts = Pick<
  AnthropicUsage,
  'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'
>

/** Maps a message; a reply that is not one (no `content` list, an error body) throws `MalformedReplyError`. */
export function fromAnthropicMessage(reply: AnthropicMessage): Completion {
  const response = checkAnthropicMessage(reply)
  let text = ''
  const toolCalls: ToolCallRequest[] = []
  for (const block of response.content) {
    if (block.type === 'text') text += block.text
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) })
    }
  }
  return {
    message: { text, toolCalls },
    usage: fromAnthropicUsage(response.usage),
    finishReason: fromAnthropicStopReason(response.stop_reason),
    model: response.model,
  }
}

/** Anthropic's `input_tokens` excludes cache reads and writes; ours includes them. */
export function fromAnthropicUsage(usage: UsageCounts | undefined): Usage {
  const cacheReadTokens = usage?.cache_read_input_tokens ?? 0
  const cacheWriteTokens = usage?.cache_creation_input_tokens ?? 0
  return {
    inputTokens: (usage?.input_tokens ?? 0) + cacheReadTokens + cacheWriteTokens,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens,
    cacheWriteTokens,
  }
}

export function fromAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'tool_use':
      return 'tool_calls'
    case 'refusal':
      return 'content_filter'
    default:
      return 'other'
  }
}

interface StreamedToolCall extends ToolCallRequest {
  index: number
  /** `input` from `content_block_start`, used when no `input_json_delta` follows */
  initialInput: unknown
}

/** Folds raw Messages stream events into events and, after `message_stop`, the whole completion. */
export class AnthropicStreamAccumulator {
  private text = ''
  private readonly calls = new Map<number, StreamedToolCall>()
  private usage: UsageCounts = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  }
  private stopReason: string | null = null
  private stopped = false
  private model: string

  constructor(model: string) {
    this.model = model
  }

  push(event: RawMessageStreamEvent): CompletionEvent[] {
    switch (event.type) {
      case 'message_start':
        if (typeof (event.message as unknown) !== 'object' || (event.message as unknown) === null)
          throw new MalformedReplyError('`message_start` carries no message')
        this.model = event.message.model
        this.usage = { ...event.message.usage }
        return []
      case 'content_block_start': {
        const block = event.content_block
        if (block.type !== 'tool_use') return []
        const call = {
          index: this.calls.size,
          id: block.id,
          name: block.name,
          arguments: '',
          initialInput: block.input,
        }
        this.calls.set(event.index, call)
        return [
          { type: 'tool-call-delta', index: call.index, id: call.id, name: call.name, argumentsDelta: '' },
        ]
      }
      case 'content_block_delta': {
        const delta = event.delta
        if (delta.type === 'text_delta') {
          this.text += delta.text
          return [{ type: 'text-delta', text: delta.text }]
        }
        const call = this.calls.get(event.index)
        if (delta.type !== 'input_json_delta' || !call) return []
        call.arguments += delta.partial_json
        return [{ type: 'tool-call-delta', index: call.index, argumentsDelta: delta.partial_json }]
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason
        this.mergeUsage(event.usage)
        return []
      case 'message_stop':
        // the API always says why it stopped before it stops; a stream without it was cut by something between
        if (this.stopReason === null)
          throw new MalformedReplyError('the stream stopped with no stop reason (no `message_delta`)')
        this.stopped = true
        return []
      default:
        return []
    }
  }

  get finished(): boolean {
    return this.stopped
  }

  completion(): Completion {
    const toolCalls = [...this.calls.values()].map(({ id, name, arguments: args, initialInput }) => ({
      id,
      name,
      arguments: args || JSON.stringify(initialInput ?? {}),
    }))
    return {
      message: { text: this.text, toolCalls },
      usage: fromAnthropicUsage(this.usage),
      finishReason: fromAnthropicStopReason(this.stopReason),
      model: this.model,
    }
  }

  /** `message_delta` counts are cumulative, so they replace the ones from `message_start` */
  private mergeUsage(usage: MessageDeltaUsage): void {
    this.usage = {
      input_tokens: usage.input_tokens ?? this.usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? this.usage.cache_read_input_tokens,
      cache_creation_input_tokens:
        usage.cache_creation_input_tokens ?? this.usage.cache_creation_input_tokens,
    }
  }
}
