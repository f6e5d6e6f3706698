import type { InputPart, Message, ReasoningPart, ToolCallRequest } from '../types.ts'
import type {
  AiSdkAssistantPart,
  AiSdkCallOptions,
  AiSdkPromptMessage,
  AiSdkProviderMetadata,
  AiSdkToolResultPart,
  AiSdkUserPart,
} from './ai-sdk-model.ts'
import { sourceOf } from './input-parts-request.ts'
import type { CompletionRequest, ModelSettings } from './provider.ts'

/** Tags the reasoning parts and tool calls whose provider metadata the bridge sends back. */
export const aiSdkTag = 'ai-sdk'

export function toAiSdkCallOptions(
  request: CompletionRequest,
  providerName: string,
  providerOptions: AiSdkProviderMetadata | undefined,
): AiSdkCallOptions {
  const settings = request.settings ?? {}
  const prompt: AiSdkPromptMessage[] = request.system ? [{ role: 'system', content: request.system }] : []
  for (const message of request.messages) appendMessage(prompt, message)
  const options: AiSdkCallOptions = { prompt }
  if (request.tools.length > 0) {
    options.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters,
    }))
    const choice = request.toolChoice
    if (choice !== undefined) {
      options.toolChoice =
        typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name }
    }
  }
  if (request.output) {
    options.responseFormat = { type: 'json', schema: request.output.schema, name: request.output.name }
  }
  if (settings.maxTokens !== undefined) options.maxOutputTokens = settings.maxTokens
  if (settings.temperature !== undefined) options.temperature = settings.temperature
  if (settings.topP !== undefined) options.topP = settings.topP
  const merged = mergeProviderOptions(reasoningOptions(providerName, settings), providerOptions)
  if (merged) options.providerOptions = merged
  return options
}

function appendMessage(prompt: AiSdkPromptMessage[], message: Message): void {
  switch (message.role) {
    case 'system':
      prompt.push({ role: 'system', content: message.content })
      return
    case 'user':
      prompt.push({
        role: 'user',
        content: message.parts?.map(toUserPart) ?? [{ type: 'text', text: message.content }],
      })
      return
    case 'assistant': {
      const content: AiSdkAssistantPart[] = (message.reasoning ?? []).flatMap(toReasoningPart)
      if (message.content) content.push({ type: 'text', text: message.content })
      for (const call of message.toolCalls ?? []) content.push(toToolCallPart(call))
      prompt.push({ role: 'assistant', content })
      return
    }
    case 'tool': {
      const part: AiSdkToolResultPart = {
        type: 'tool-result',
        toolCallId: message.toolCallId,
        toolName: message.name,
        output: { type: message.isError ? 'error-text' : 'text', value: message.content },
      }
      // the results of one reply's calls go back as one message
      const last = prompt.at(-1)
      if (last?.role === 'tool') last.content.push(part)
      else prompt.push({ role: 'tool', content: [part] })
      return
    }
  }
}

/** Reasoning from an earlier reply through the bridge goes back with its metadata (signatures); others' as text. */
function toReasoningPart(part: ReasoningPart): AiSdkAssistantPart[] {
  if (part.data?.['provider'] !== aiSdkTag) return []
  const metadata = bridgedMetadata(part.data)
  return [{ type: 'reasoning', text: part.text, ...(metadata ? { providerOptions: metadata } : {}) }]
}

/** A tool call goes back with the metadata its reply gave it (Gemini's thought signature, which Gemini 3 requires). */
function toToolCallPart(call: ToolCallRequest): AiSdkAssistantPart {
  const metadata = call.data?.['provider'] === aiSdkTag ? bridgedMetadata(call.data) : undefined
  return {
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input: parseArguments(call.arguments),
    ...(metadata ? { providerOptions: metadata } : {}),
  }
}

function bridgedMetadata(data: Record<string, unknown> | undefined): AiSdkProviderMetadata | undefined {
  const metadata = data?.['providerMetadata']
  return typeof metadata === 'object' && metadata !== null ? (metadata as AiSdkProviderMetadata) : undefined
}

/** Malformed arguments (which the engine reported back to the model) go back as the text the model wrote. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** Asks a reasoning model to think and show it, in the options each provider family reads. */
function reasoningOptions(providerName: string, settings: ModelSettings): AiSdkProviderMetadata | undefined {
  const reasoning = settings.reasoning
  if (!reasoning) return undefined
  const budget = reasoning.budgetTokens ?? budgetsByEffort[reasoning.effort ?? 'medium']
  const family = providerName.split('.')[0] ?? ''
  if (family === 'openai' || family === 'azure') {
    const options = {
      reasoningSummary: 'auto',
      ...(reasoning.effort ? { reasoningEffort: reasoning.effort } : {}),
    }
    // Azure runs the `openai` package's models: older versions read the `openai` options, newer ones `azure`
    return family === 'openai' ? { openai: options } : { openai: options, azure: options }
  }
  if (family === 'anthropic') return { anthropic: { thinking: { type: 'enabled', budgetTokens: budget } } }
  if (family === 'amazon-bedrock')
    return { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: budget } } }
  if (family === 'google') {
    const options = { thinkingConfig: { includeThoughts: true, thinkingBudget: budget } }
    // Vertex's Gemini models (`google.vertex.chat`) read `vertex` options, older versions `google`
    return providerName.includes('vertex') ? { google: options, vertex: options } : { google: options }
  }
  return undefined
}

const budgetsByEffort = { minimal: 1024, low: 1024, medium: 4096, high: 16384 } as const

function mergeProviderOptions(
  ours: AiSdkProviderMetadata | undefined,
  theirs: AiSdkProviderMetadata | undefined,
): AiSdkProviderMetadata | undefined {
  if (!ours) return theirs
  if (!theirs) return ours
  const merged: AiSdkProviderMetadata = { ...ours }
  for (const [key, value] of Object.entries(theirs)) merged[key] = { ...merged[key], ...value }
  return merged
}

/** An input part as the AI SDK's prompt has it: images are files with an image media type. */
function toUserPart(part: InputPart): AiSdkUserPart {
  if (part.type === 'text') return { type: 'text', text: part.text }
  const source = sourceOf(part)
  const filename = part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}
  if ('url' in source) {
    const mediaType = part.mediaType ?? (part.type === 'image' ? 'image/*' : 'application/octet-stream')
    return { type: 'file', data: new URL(source.url), mediaType, ...filename }
  }
  return { type: 'file', data: source.base64, mediaType: source.mediaType, ...filename }
}
