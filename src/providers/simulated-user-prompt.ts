/**
 * The prompt a model gets to play the user of a conversation (`simulated_user:` in case files). The runner writes
 * it; `local` reads it back to play a scripted user offline.
 */

/** What the simulated user replies, alone, once its goal is met. */
export const GOAL_MET = 'GOAL_MET'

/** Who the simulated user is and what it wants. */
export interface SimulatedUserBrief {
  persona?: string
  goal: string
}

const GOAL_LINE = 'Your goal: '

/** The system prompt of the simulated user. */
export function simulatedUserSystemPrompt(brief: SimulatedUserBrief): string {
  return [
    'You are role-playing a user who talks to an AI assistant, to test the assistant.',
    'Write only the user’s next message: plain text, no quotes, no stage directions, no explanations.',
    ...(brief.persona === undefined ? [] : [`Who you are: ${brief.persona}`]),
    `${GOAL_LINE}${brief.goal}`,
    `Once the goal is met, reply with exactly ${GOAL_MET} and nothing else.`,
  ].join('\n')
}

/** The first message the simulated user gets, before the assistant has said anything. */
export const OPENING_REQUEST = 'Start the conversation: write your first message to the assistant.'

/** The goal written into a simulated-user system prompt; undefined when `system` is no such prompt. */
export function goalOf(system: string | undefined): string | undefined {
  if (system?.startsWith('You are role-playing a user') !== true) return undefined
  const line = system.split('\n').find((candidate) => candidate.startsWith(GOAL_LINE))
  return line?.slice(GOAL_LINE.length)
}
