import type { Completion } from '../providers/provider.ts'
import type { Message, ReasoningPart, ToolCallRequest } from '../types.ts'

/** What the loop does next; one `switch` in the loop handles each kind. */
export type Step =
  | { kind: 'final'; text: string; reasoning?: ReasoningPart[] }
  | { kind: 'tool-calls'; calls: ToolCallRequest[]; text: string; reasoning?: ReasoningPart[] }
  | { kind: 'max-iterations' }
  /** the reply was cut off (token limit) or withheld (content filter): not an answer, whatever it holds */
  | { kind: 'cut-off'; stopReason: 'truncated' | 'content_filter'; text: string; reasoning?: ReasoningPart[] }

export function nextStep(completion: Completion): Step {
  const { text, toolCalls } = completion.message
  const reasoning = completion.reasoning?.length ? { reasoning: completion.reasoning } : {}
  if (completion.finishReason === 'length')
    return { kind: 'cut-off', stopReason: 'truncated', text, ...reasoning }
  if (completion.finishReason === 'content_filter')
    return { kind: 'cut-off', stopReason: 'content_filter', text, ...reasoning }
  return toolCalls.length > 0
    ? { kind: 'tool-calls', calls: toolCalls, text, ...reasoning }
    : { kind: 'final', text, ...reasoning }
}

/** The model's reply as the conversation keeps it: its reasoning goes along, for APIs that want it back. */
export function assistantMessage(
  step: Exclude<Step, { kind: 'max-iterations' }>,
): Extract<Message, { role: 'assistant' }> {
  const message: Extract<Message, { role: 'assistant' }> = { role: 'assistant', content: step.text }
  if (step.kind === 'tool-calls') message.toolCalls = step.calls
  if (step.reasoning) message.reasoning = step.reasoning
  return message
}
