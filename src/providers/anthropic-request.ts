import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  Tool,
  ToolChoice as AnthropicToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages'
import type { InputPart, Message, ReasoningPart } from '../types.ts'
import { sourceOf, unsupportedRequest } from './input-parts-request.ts'
import type { CompletionRequest, ModelSettings, ToolChoice } from './provider.ts'

/** Tags the thinking blocks this API can take back. */
export const anthropicReasoningTag = 'anthropic'

/** Thinking budgets for `settings.reasoning.effort` when no `budgetTokens` is given. */
const budgets = { minimal: 1024, low: 1024, medium: 4096, high: 16384 }

/** Anthropic requires `max_tokens`; this is sent when the settings give none. */
export const defaultAnthropicMaxTokens = 4096

export function toAnthropicParams(
  request: CompletionRequest,
  model: string,
  maxTokens = defaultAnthropicMaxTokens,
): Omit<MessageCreateParamsBase, 'stream'> {
  const settings = request.settings ?? {}
  const system = [
    request.system,
    ...request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : [])),
  ]
    .filter(Boolean)
    .join('\n\n')
  const params: Omit<MessageCreateParamsBase, 'stream'> = {
    model,
    max_tokens: settings.maxTokens ?? maxTokens,
    messages: toAnthropicMessages(request.messages),
    ...(system ? { system } : {}),
  }
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool): Tool => ({
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.parameters, type: 'object' },
    }))
    const choice = toAnthropicToolChoice(request.toolChoice ?? 'auto', settings.parallelToolCalls)
    if (settings.reasoning && (choice.type === 'any' || choice.type === 'tool')) {
      throw unsupportedRequest(
        'Anthropic',
        'extended thinking with a forced tool choice',
        "use toolChoice 'auto' or 'none', or drop `settings.reasoning`.",
      )
    }
    if (request.toolChoice !== undefined || choice.type !== 'auto' || settings.parallelToolCalls === false) {
      params.tool_choice = choice
    }
  }
  if (request.output) {
    params.output_config = { format: { type: 'json_schema', schema: request.output.schema } }
  }
  if (settings.reasoning) {
    const budget = settings.reasoning.budgetTokens ?? budgets[settings.reasoning.effort ?? 'medium']
    params.thinking = { type: 'enabled', budget_tokens: budget }
    // the budget is part of max_tokens, which must leave room for the answer
    if (params.max_tokens <= budget) params.max_tokens = budget + maxTokens
  }
  return { ...params, ...sampling(settings) }
}

/** 1.x types dropped the sampling knobs that newer models reject; they are still sent when the user set them. */
function sampling(settings: ModelSettings): Record<string, number> {
  return {
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.topP === undefined ? {} : { top_p: settings.topP }),
  }
}

function toAnthropicMessages(messages: Message[]): MessageParam[] {
  const result: MessageParam[] = []
  let toolResults: ToolResultBlockParam[] | undefined
  for (const message of messages) {
    if (message.role === 'tool') {
      const block: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      }
      if (toolResults) toolResults.push(block)
      else result.push({ role: 'user', content: (toolResults = [block]) })
      continue
    }
    toolResults = undefined
    if (message.role === 'user')
      result.push({ role: 'user', content: message.parts?.map(toContentBlock) ?? message.content })
    else if (message.role === 'assistant')
      result.push({ role: 'assistant', content: assistantContent(message) })
  }
  return result
}

function assistantContent(message: Extract<Message, { role: 'assistant' }>): string | ContentBlockParam[] {
  const calls = message.toolCalls ?? []
  const thinking = (message.reasoning ?? []).flatMap(toThinkingBlock)
  if (calls.length === 0 && thinking.length === 0) return message.content
  const blocks: ContentBlockParam[] = [...thinking]
  if (message.content) blocks.push({ type: 'text', text: message.content })
  for (const call of calls)
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) })
  return blocks
}

/** A thinking block from an earlier reply of this API goes back as it came, first; others' reasoning is left out. */
function toThinkingBlock(part: ReasoningPart): ContentBlockParam[] {
  const data = part.data
  if (data?.['provider'] !== anthropicReasoningTag) return []
  if (typeof data['redacted'] === 'string') return [{ type: 'redacted_thinking', data: data['redacted'] }]
  if (typeof data['signature'] !== 'string') return []
  return [{ type: 'thinking', thinking: part.text, signature: data['signature'] }]
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const

function toContentBlock(part: InputPart): ContentBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text }
  const source = sourceOf(part)
  if (part.type === 'image') {
    if ('url' in source) return { type: 'image', source: { type: 'url', url: source.url } }
    const mediaType = IMAGE_TYPES.find((type) => type === source.mediaType)
    if (!mediaType)
      throw unsupportedRequest(
        'Anthropic',
        `images of type ${source.mediaType}`,
        `send ${IMAGE_TYPES.join(', ')}.`,
      )
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: source.base64 } }
  }
  if ('url' in source) return { type: 'document', source: { type: 'url', url: source.url } }
  if (source.mediaType === 'application/pdf')
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: source.base64 },
    }
  if (source.mediaType === 'text/plain') {
    const text = Buffer.from(source.base64, 'base64').toString('utf8')
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } }
  }
  throw unsupportedRequest(
    'Anthropic',
    `files of type ${source.mediaType}`,
    'send PDF (application/pdf) or text/plain.',
  )
}

/** Anthropic takes `input` as an object; malformed or non-object arguments (from another provider) become `{}`. */
function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

function toAnthropicToolChoice(choice: ToolChoice, parallel: boolean | undefined): AnthropicToolChoice {
  const disable = parallel === false ? { disable_parallel_tool_use: true } : {}
  if (choice === 'none') return { type: 'none' }
  if (choice === 'auto') return { type: 'auto', ...disable }
  if (choice === 'required') return { type: 'any', ...disable }
  return { type: 'tool', name: choice.name, ...disable }
}
