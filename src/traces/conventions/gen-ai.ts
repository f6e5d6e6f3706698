import type { ConventionTable } from './convention.ts'
import { stringAttribute } from './convention.ts'

const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'responses'])

/**
 * The OpenTelemetry GenAI semantic conventions (`gen_ai.*`, 1.36 and later, with the older `gen_ai.system` and
 * `prompt_tokens` / `completion_tokens` names): what our own engine exports, and many instrumentations.
 */
export const genAi: ConventionTable = {
  name: 'gen_ai',
  claims: (span) => Object.keys(span.attributes).some((key) => key.startsWith('gen_ai.')),
  kindOf: (span) => {
    const operation = stringAttribute(span, 'gen_ai.operation.name')
    if (operation === 'execute_tool') return 'tool'
    if (operation !== undefined) return MODEL_OPERATIONS.has(operation) ? 'model' : undefined
    if (stringAttribute(span, 'gen_ai.tool.name') !== undefined) return 'tool'
    return stringAttribute(span, 'gen_ai.request.model') === undefined ? undefined : 'model'
  },
  model: {
    id: ['gen_ai.response.model', 'gen_ai.request.model'],
    provider: ['gen_ai.provider.name', 'gen_ai.system'],
    inputTokens: ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'],
    outputTokens: ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'],
    cacheReadTokens: ['gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens'],
    cacheWriteTokens: [
      'gen_ai.usage.cache_creation.input_tokens',
      'gen_ai.usage.cache_creation_input_tokens',
    ],
    finishReason: ['gen_ai.response.finish_reasons'],
  },
  tool: {
    name: ['gen_ai.tool.name'],
    callId: ['gen_ai.tool.call.id'],
    args: ['gen_ai.tool.call.arguments'],
    result: ['gen_ai.tool.call.result'],
  },
}
