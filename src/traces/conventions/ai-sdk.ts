import type { ConventionTable } from './convention.ts'

/**
 * The AI SDK's `experimental_telemetry` spans (`ai.*`): `ai.generateText.doGenerate` / `ai.streamText.doStream`
 * (and the object variants) are model calls, `ai.toolCall` a tool call; the outer `ai.generateText` span, which
 * repeats the totals, is neither.
 */
export const aiSdk: ConventionTable = {
  name: 'ai_sdk',
  claims: (span) => span.name.startsWith('ai.') || 'ai.operationId' in span.attributes,
  kindOf: (span) => {
    if (span.name === 'ai.toolCall') return 'tool'
    return span.name.endsWith('.doGenerate') || span.name.endsWith('.doStream') ? 'model' : undefined
  },
  model: {
    id: ['ai.response.model', 'ai.model.id'],
    provider: ['ai.model.provider'],
    inputTokens: ['ai.usage.inputTokens', 'ai.usage.promptTokens'],
    outputTokens: ['ai.usage.outputTokens', 'ai.usage.completionTokens'],
    cacheReadTokens: ['ai.usage.inputTokenDetails.cacheReadTokens', 'ai.usage.cachedInputTokens'],
    cacheWriteTokens: ['ai.usage.inputTokenDetails.cacheWriteTokens'],
    finishReason: ['ai.response.finishReason'],
  },
  tool: {
    name: ['ai.toolCall.name'],
    callId: ['ai.toolCall.id'],
    args: ['ai.toolCall.args'],
    result: ['ai.toolCall.result'],
  },
}
