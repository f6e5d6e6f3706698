import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions'
import type { InputPart, Message } from '../types.ts'
import { filenameOf, sourceOf, unsupportedRequest, urlOf } from './input-parts-request.ts'
import { isStrictCompatible } from './json-schema-strict.ts'
import type { CompletionRequest, ToolChoice } from './provider.ts'

/** How the OpenAI request body is shaped for one model. */
export interface OpenAiRequestOptions {
  model: string
  /** send `max_completion_tokens` instead of `max_tokens` */
  maxCompletionTokens: boolean
}

/** Reasoning model families reject `max_tokens` and take `max_completion_tokens`. */
export function requiresMaxCompletionTokens(model: string): boolean {
  return /^(o\d|gpt-5|codex)/i.test(model.replace(/^.*\//, ''))
}

export function toOpenAiParams(
  request: CompletionRequest,
  options: OpenAiRequestOptions,
): Omit<ChatCompletionCreateParamsBase, 'stream'> {
  const settings = request.settings ?? {}
  const params: Omit<ChatCompletionCreateParamsBase, 'stream'> = {
    model: options.model,
    messages: toOpenAiMessages(request.system, request.messages),
  }
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }))
    if (request.toolChoice !== undefined) params.tool_choice = toOpenAiToolChoice(request.toolChoice)
    if (settings.parallelToolCalls !== undefined) params.parallel_tool_calls = settings.parallelToolCalls
  }
  if (request.output) {
    params.response_format = {
      type: 'json_schema',
      json_schema: {
        name: schemaName(request.output.name),
        schema: request.output.schema,
        strict: isStrictCompatible(request.output.schema),
      },
    }
  }
  if (settings.temperature !== undefined) params.temperature = settings.temperature
  if (settings.topP !== undefined) params.top_p = settings.topP
  if (settings.maxTokens !== undefined) {
    if (options.maxCompletionTokens) params.max_completion_tokens = settings.maxTokens
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- older OpenAI-compatible servers only read max_tokens
    else params.max_tokens = settings.maxTokens
  }
  return params
}

function toOpenAiMessages(system: string | undefined, messages: Message[]): ChatCompletionMessageParam[] {
  const result: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : []
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: message.content })
        break
      case 'user':
        result.push({ role: 'user', content: message.parts?.map(toContentPart) ?? message.content })
        break
      case 'assistant': {
        const calls = message.toolCalls ?? []
        if (calls.length === 0) {
          result.push({ role: 'assistant', content: message.content })
          break
        }
        result.push({
          role: 'assistant',
          content: message.content || null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        })
        break
      }
      case 'tool':
        result.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content })
        break
    }
  }
  return result
}

function toContentPart(part: InputPart): ChatCompletionContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text }
  const source = sourceOf(part)
  if (part.type === 'image') return { type: 'image_url', image_url: { url: urlOf(source) } }
  if ('url' in source) {
    throw unsupportedRequest(
      'OpenAI Chat Completions',
      'files by URL',
      'give the file as base64 (or a data: URL), or use the Responses API (`openai-responses:`).',
    )
  }
  return { type: 'file', file: { file_data: urlOf(source), filename: filenameOf(part) } }
}

function toOpenAiToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } }
}

/** OpenAI requires `^[a-zA-Z0-9_-]{1,64}$` for the schema name. */
function schemaName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'output'
}
