import type { ToolCallRequest, Usage } from '../types.ts'
import type { CompletionRequest } from './provider.ts'

/** A rough, deterministic token count (4 characters a token) for offline providers that have no tokenizer. */
export function estimateUsage(
  request: CompletionRequest,
  text: string,
  toolCalls: readonly ToolCallRequest[],
): Usage {
  let inputChars = request.system?.length ?? 0
  for (const message of request.messages) inputChars += message.content.length
  for (const tool of request.tools) inputChars += tool.name.length + tool.description.length
  let outputChars = text.length
  for (const call of toolCalls) outputChars += call.name.length + call.arguments.length
  return {
    inputTokens: Math.ceil(inputChars / 4),
    outputTokens: Math.ceil(outputChars / 4),
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  }
}
