import type { Completion } from '../providers/provider.ts'
import type { ToolCallRequest } from '../types.ts'

/** What the loop does next; one `switch` in the loop handles each kind. */
export type Step =
  | { kind: 'final'; text: string }
  | { kind: 'tool-calls'; calls: ToolCallRequest[]; text: string }
  | { kind: 'max-iterations' }
  /** the reply was cut off (token limit) or withheld (content filter): not an answer, whatever it holds */
  | { kind: 'cut-off'; stopReason: 'truncated' | 'content_filter'; text: string }

export function nextStep(completion: Completion): Step {
  const { text, toolCalls } = completion.message
  if (completion.finishReason === 'length') return { kind: 'cut-off', stopReason: 'truncated', text }
  if (completion.finishReason === 'content_filter')
    return { kind: 'cut-off', stopReason: 'content_filter', text }
  return toolCalls.length > 0 ? { kind: 'tool-calls', calls: toolCalls, text } : { kind: 'final', text }
}
