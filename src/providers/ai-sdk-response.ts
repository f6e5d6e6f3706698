import { ProviderError } from '../errors.ts'
import type { FinishReason, ReasoningPart, ToolCallRequest, Usage } from '../types.ts'
import type {
  AiSdkContent,
  AiSdkFinishReason,
  AiSdkGenerateResult,
  AiSdkProviderMetadata,
  AiSdkStreamPart,
  AiSdkUsage,
} from './ai-sdk-model.ts'
import { aiSdkTag } from './ai-sdk-request.ts'
import type { Completion, CompletionEvent } from './provider.ts'

type ToolCallContent = Extract<AiSdkContent, { type: 'tool-call' }>

/**
 * A `doGenerate` result as a completion: its text (for structured output, the text the model marked for parsing),
 * the tool calls that are ours to run, and its reasoning.
 */
export function fromGenerateResult(
  result: AiSdkGenerateResult,
  model: string,
  providerId: string,
  structured = false,
): Completion {
  let text = ''
  const toolCalls: ToolCallRequest[] = []
  const reasoning: ReasoningPart[] = []
  for (const part of result.content) {
    if (isText(part)) text += part.text
    else if (isToolCall(part)) {
      if (!part.providerExecuted) toolCalls.push(toToolCall(part))
    } else if (isReasoning(part)) reasoning.push(toReasoning(part.text, part.providerMetadata))
  }
  if (structured && typeof result.structuredOutputText === 'string') text = result.structuredOutputText
  return completionOf({
    text,
    toolCalls,
    reasoning,
    usage: result.usage,
    finishReason: result.finishReason,
    model: result.response?.modelId ?? model,
    providerId,
  })
}

interface Parts {
  text: string
  toolCalls: ToolCallRequest[]
  reasoning: ReasoningPart[]
  usage: AiSdkUsage
  finishReason: AiSdkFinishReason
  model: string
  providerId: string
}

function completionOf(parts: Parts): Completion {
  const completion: Completion = {
    message: { text: parts.text, toolCalls: parts.toolCalls },
    usage: fromAiSdkUsage(parts.usage),
    finishReason: finishReasonOf(parts.finishReason, parts.toolCalls.length > 0, parts.providerId),
    model: parts.model,
  }
  if (parts.reasoning.length > 0) completion.reasoning = parts.reasoning
  return completion
}

/**
 * Usage in our shape, with cache reads and writes counted inside `inputTokens`: V3 and V4 give a total that
 * includes them; V2 gives `inputTokens` and, apart, `cachedInputTokens`.
 */
export function fromAiSdkUsage(usage: AiSdkUsage): Usage {
  if (typeof usage.inputTokens === 'object') {
    const input = usage.inputTokens
    const output = usage.outputTokens as { total: number | undefined }
    const cacheReadTokens = input.cacheRead ?? 0
    const cacheWriteTokens = input.cacheWrite ?? 0
    return {
      inputTokens: input.total ?? (input.noCache ?? 0) + cacheReadTokens + cacheWriteTokens,
      outputTokens: output.total ?? 0,
      cacheReadTokens,
      cacheWriteTokens,
    }
  }
  const flat = usage as { inputTokens: number | undefined; outputTokens: number | undefined }
  const cached = 'cachedInputTokens' in usage ? (usage.cachedInputTokens ?? 0) : 0
  return {
    inputTokens: Math.max(flat.inputTokens ?? 0, cached),
    outputTokens: flat.outputTokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  }
}

/**
 * The AI SDK's unified finish reason as ours. `error` and (V4) `interrupted` mean the reply is not whole: a
 * retryable provider failure, never the agent's answer.
 */
export function finishReasonOf(
  reason: AiSdkFinishReason,
  calledTools: boolean,
  providerId: string,
): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason.unified
  switch (unified) {
    case 'length':
      return 'length'
    case 'content-filter':
      return 'content_filter'
    case 'tool-calls':
      return 'tool_calls'
    case 'error':
    case 'interrupted': {
      const raw = typeof reason === 'string' || reason.raw === undefined ? '' : ` (${reason.raw})`
      throw new ProviderError(`The model behind ${providerId} stopped with \`${unified}\`${raw}`, {
        providerId,
        retryable: true,
      })
    }
    default:
      // some APIs say `stop` for a reply that calls tools
      return calledTools ? 'tool_calls' : unified === 'stop' ? 'stop' : 'other'
  }
}

function toToolCall(part: ToolCallContent): ToolCallRequest {
  const call: ToolCallRequest = { id: part.toolCallId, name: part.toolName, arguments: part.input }
  if (part.providerMetadata) call.data = { provider: aiSdkTag, providerMetadata: part.providerMetadata }
  return call
}

function toReasoning(text: string, metadata: AiSdkProviderMetadata | undefined): ReasoningPart {
  return { text, data: { provider: aiSdkTag, ...(metadata ? { providerMetadata: metadata } : {}) } }
}

function isText(part: AiSdkContent): part is { type: 'text'; text: string } {
  return part.type === 'text'
}

function isToolCall(part: AiSdkContent): part is ToolCallContent {
  return part.type === 'tool-call'
}

function isReasoning(
  part: AiSdkContent,
): part is { type: 'reasoning'; text: string; providerMetadata?: AiSdkProviderMetadata } {
  return part.type === 'reasoning'
}

/**
 * Folds `doStream` parts into our events and, at `finish`, the whole completion. Tool calls stream as their input
 * deltas where the provider sends them, else whole when the call arrives; an `error` part throws.
 */
export class AiSdkStreamAccumulator {
  #text = ''
  readonly #calls: ToolCallRequest[] = []
  /** stream id of a call whose input is streaming → its index among the calls */
  readonly #streaming = new Map<string, number>()
  readonly #streamed = new Set<number>()
  readonly #reasoning = new Map<string, { text: string; metadata?: AiSdkProviderMetadata }>()
  #model: string
  #finish: { usage: AiSdkUsage; finishReason: AiSdkFinishReason } | undefined
  readonly #providerId: string
  readonly #toError: (error: unknown) => Error

  constructor(model: string, providerId: string, toError: (error: unknown) => Error) {
    this.#model = model
    this.#providerId = providerId
    this.#toError = toError
  }

  push(part: AiSdkStreamPart): CompletionEvent[] {
    const p = part as AiSdkStreamPart & Record<string, unknown>
    switch (p.type) {
      case 'text-delta': {
        const delta = typeof p['delta'] === 'string' ? p['delta'] : ''
        this.#text += delta
        return delta ? [{ type: 'text-delta', text: delta }] : []
      }
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        return this.#pushReasoning(p)
      case 'tool-input-start': {
        if (p['providerExecuted'] === true) return []
        const index = this.#calls.length
        const id = String(p['id'])
        const name = String(p['toolName'])
        this.#calls.push({ id, name, arguments: '' })
        this.#streaming.set(id, index)
        return [{ type: 'tool-call-delta', index, id, name, argumentsDelta: '' }]
      }
      case 'tool-input-delta': {
        const index = this.#streaming.get(String(p['id']))
        const delta = typeof p['delta'] === 'string' ? p['delta'] : ''
        if (index === undefined || !delta) return []
        this.#streamed.add(index)
        return [{ type: 'tool-call-delta', index, argumentsDelta: delta }]
      }
      case 'tool-call':
        return this.#pushCall(part as ToolCallContent)
      case 'response-metadata':
        if (typeof p['modelId'] === 'string') this.#model = p['modelId']
        return []
      case 'finish':
        this.#finish = part as { type: 'finish'; usage: AiSdkUsage; finishReason: AiSdkFinishReason }
        return []
      case 'error':
        throw this.#toError(p['error'])
      default:
        return []
    }
  }

  get finished(): boolean {
    return this.#finish !== undefined
  }

  completion(): Completion {
    if (!this.#finish) throw new Error('the stream has not finished')
    const reasoning = [...this.#reasoning.values()].map((part) => toReasoning(part.text, part.metadata))
    return completionOf({
      text: this.#text,
      toolCalls: this.#calls,
      reasoning,
      usage: this.#finish.usage,
      finishReason: this.#finish.finishReason,
      model: this.#model,
      providerId: this.#providerId,
    })
  }

  #pushCall(part: ToolCallContent): CompletionEvent[] {
    if (part.providerExecuted) return []
    const call = toToolCall(part)
    const index = this.#streaming.get(part.toolCallId)
    if (index === undefined) {
      const added = this.#calls.push(call) - 1
      return [
        {
          type: 'tool-call-delta',
          index: added,
          id: call.id,
          name: call.name,
          argumentsDelta: call.arguments,
        },
      ]
    }
    this.#calls[index] = call
    // a provider that announced the call but sent no input deltas gives the input whole here
    return this.#streamed.has(index)
      ? []
      : [{ type: 'tool-call-delta', index, argumentsDelta: call.arguments }]
  }

  #pushReasoning(part: Record<string, unknown>): CompletionEvent[] {
    const id = String(part['id'])
    const entry = this.#reasoning.get(id) ?? { text: '' }
    this.#reasoning.set(id, entry)
    const metadata = part['providerMetadata']
    if (typeof metadata === 'object' && metadata !== null) {
      entry.metadata = { ...entry.metadata, ...(metadata as AiSdkProviderMetadata) }
    }
    const delta = part['type'] === 'reasoning-delta' && typeof part['delta'] === 'string' ? part['delta'] : ''
    entry.text += delta
    return delta ? [{ type: 'reasoning-delta', text: delta }] : []
  }
}
