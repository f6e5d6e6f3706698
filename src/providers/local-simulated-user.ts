import type { CompletionRequest } from './provider.ts'
import { GOAL_MET, goalOf } from './simulated-user-prompt.ts'

/**
 * How `local` plays a simulated user: it sends the goal's steps one per turn, then says the goal is met. The steps
 * are the goal's quoted strings when it has some (`Ask "Where is order o-7?", then "Cancel it"`), otherwise its
 * clauses (split at `then`, `;` and sentence ends). Undefined when the request is not a simulated-user prompt.
 */
export function localSimulatedUserReply(request: CompletionRequest): string | undefined {
  const goal = goalOf(request.system)
  if (goal === undefined) return undefined
  const sent = request.messages.filter((message) => message.role === 'assistant').length
  return stepsOf(goal)[sent] ?? GOAL_MET
}

function stepsOf(goal: string): string[] {
  const quoted = [...goal.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((match) => match[1] ?? match[2] ?? '')
  if (quoted.length > 0) return quoted
  return goal
    .split(/\bthen\b|;|(?<=[.?!])\s+/i)
    .map((step) =>
      step
        .trim()
        .replace(/^(?:and|,)\s*/i, '')
        .replace(/[,\s]+$/, ''),
    )
    .filter((step) => step.length > 0)
    .map((step) => step.charAt(0).toUpperCase() + step.slice(1))
}
