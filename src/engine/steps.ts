import type { Completion } from '../providers/provider.ts'
import type { ToolCallRequest } from '../types.ts'

/** What the loop does next; one `switch` in the loop handles each kind. */
export type Step =
  | { kind: 'final'; text: string }
  | { kind: 'tool-calls'; calls: ToolCallRequest[]; text: string }
  | { kind: 'max-iterations' }

export function nextStep(completion: Completion): Step {
  const { text, toolCalls } = completion.message
  return toolCalls.length > 0 ? { kind: 'tool-calls', calls: toolCalls, text } : { kind: 'final', text }
}
