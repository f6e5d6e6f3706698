import type { Completion } from '../providers/provider.ts'
import type { Message, ReasoningPart, ToolCallRequest } from '../types.ts'

/** What the loop does next; one `switch` in the loop handles each kind. */
export type Step =
  | { kind: 'final'; text: string; reasoning?: ReasoningPart[] }
  | { kind: 'tool-calls'; calls: ToolCallRequest[]; text: string; reasoning?: ReasoningPart[] }
  | { kind: 'max-iterations' }

export function nextStep(completion: Completion): Step {
  const { text, toolCalls } = completion.message
  const reasoning = completion.reasoning?.length ? { reasoning: completion.reasoning } : {}
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
