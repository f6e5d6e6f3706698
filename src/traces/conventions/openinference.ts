import type { ConventionTable } from './convention.ts'
import { stringAttribute } from './convention.ts'

/**
 * OpenInference (Arize Phoenix's instrumentations, for many frameworks and languages): `openinference.span.kind`
 * `LLM` is a model call, `TOOL` a tool call; a tool's arguments and result are its span's `input.value` and
 * `output.value`.
 */
export const openInference: ConventionTable = {
  name: 'openinference',
  claims: (span) => 'openinference.span.kind' in span.attributes,
  kindOf: (span) => {
    const kind = stringAttribute(span, 'openinference.span.kind')?.toUpperCase()
    return kind === 'LLM' ? 'model' : kind === 'TOOL' ? 'tool' : undefined
  },
  model: {
    id: ['llm.model_name'],
    provider: ['llm.provider', 'llm.system'],
    inputTokens: ['llm.token_count.prompt'],
    outputTokens: ['llm.token_count.completion'],
    cacheReadTokens: ['llm.token_count.prompt_details.cache_read'],
    cacheWriteTokens: ['llm.token_count.prompt_details.cache_write'],
    finishReason: ['llm.finish_reason'],
  },
  tool: {
    name: ['tool.name'],
    callId: ['tool_call.id', 'tool.id'],
    args: ['input.value'],
    result: ['output.value'],
  },
}
