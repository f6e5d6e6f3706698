import type {
  FunctionTool,
  ResponseInputContent,
  ResponseCreateParamsBase,
  ResponseInputItem,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses'
import type { InputPart, Message, ReasoningPart } from '../types.ts'
import { filenameOf, sourceOf, urlOf } from './input-parts-request.ts'
import { isStrictCompatible } from './json-schema-strict.ts'
import type { CompletionRequest, ToolChoice } from './provider.ts'

/** Tags the reasoning items this API can take back. */
export const responsesReasoningTag = 'openai-responses'

/** Models that reason whether or not asked to: o-series, GPT-5 (but its chat variant) and Codex. */
const reasoningModels = /^(o\d|gpt-5(?!-chat)|codex)/

/**
 * The request for one call. Unless `store` is true the API keeps nothing (`store: false`); a reasoning model is then
 * asked for its reasoning items' `encrypted_content`, which goes back with them in later calls, since an item's id
 * alone refers to nothing stored.
 */
export function toResponsesParams(
  request: CompletionRequest,
  model: string,
  store = false,
): Omit<ResponseCreateParamsBase, 'stream'> {
  const settings = request.settings ?? {}
  const params: Omit<ResponseCreateParamsBase, 'stream'> = {
    model,
    input: request.messages.flatMap((message) => toInputItems(message, store)),
    store,
  }
  if (!store && (settings.reasoning !== undefined || reasoningModels.test(model))) {
    params.include = ['reasoning.encrypted_content']
  }
  if (request.system) params.instructions = request.system
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool): FunctionTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      // the Responses API makes functions strict unless told otherwise, and strict rejects optional properties
      strict: isStrictCompatible(tool.parameters),
    }))
    if (request.toolChoice !== undefined) params.tool_choice = toToolChoice(request.toolChoice)
    if (settings.parallelToolCalls !== undefined) params.parallel_tool_calls = settings.parallelToolCalls
  }
  if (request.output) {
    params.text = {
      format: {
        type: 'json_schema',
        name: request.output.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'output',
        schema: request.output.schema,
        strict: isStrictCompatible(request.output.schema),
      },
    }
  }
  if (settings.temperature !== undefined) params.temperature = settings.temperature
  if (settings.topP !== undefined) params.top_p = settings.topP
  if (settings.maxTokens !== undefined) params.max_output_tokens = settings.maxTokens
  if (settings.reasoning) {
    params.reasoning = {
      summary: 'auto',
      ...(settings.reasoning.effort ? { effort: settings.reasoning.effort } : {}),
    }
  }
  return params
}

function toInputItems(message: Message, store: boolean): ResponseInputItem[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }]
    case 'user':
      return [{ role: 'user', content: message.parts?.map(toInputContent) ?? message.content }]
    case 'assistant': {
      const items: ResponseInputItem[] = (message.reasoning ?? []).flatMap((part) =>
        toReasoningItem(part, store),
      )
      if (message.content) items.push({ role: 'assistant', content: message.content })
      for (const call of message.toolCalls ?? []) {
        items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments })
      }
      return items
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }]
  }
}

function toInputContent(part: InputPart): ResponseInputContent {
  if (part.type === 'text') return { type: 'input_text', text: part.text }
  const source = sourceOf(part)
  if (part.type === 'image') return { type: 'input_image', image_url: urlOf(source), detail: 'auto' }
  if ('url' in source) return { type: 'input_file', file_url: source.url }
  return { type: 'input_file', file_data: urlOf(source), filename: filenameOf(part) }
}

/**
 * A reasoning item from an earlier reply of this API goes back as it came; others' reasoning is left out, and so is
 * an item without its encrypted content when nothing is stored (the API would answer 404 for its id).
 */
function toReasoningItem(part: ReasoningPart, store: boolean): ResponseInputItem[] {
  const data = part.data
  if (data?.['provider'] !== responsesReasoningTag || typeof data['id'] !== 'string') return []
  const encrypted = typeof data['encrypted_content'] === 'string' ? data['encrypted_content'] : undefined
  if (encrypted === undefined && !store) return []
  return [
    {
      type: 'reasoning',
      id: data['id'],
      summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
      ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
    },
  ]
}

function toToolChoice(choice: ToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name }
}
