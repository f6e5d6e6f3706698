import type { Observer } from '../observer.ts'
import type { AgentLoop, LoopState } from '../loop-state.ts'
import type { ResolvedAgent } from '../resolved-agent.ts'
import type { ToolOutcome } from '../tool-scope.ts'

/**
 * Moves the conversation to the agent of the reply's first successful handoff call: from the next turn on, that
 * agent's instructions, model, tools and settings apply, with the run's observers kept. A `handoff` step.
 */
export async function takeHandoff(loop: AgentLoop, outcomes: readonly ToolOutcome[]): Promise<void> {
  const { state } = loop
  const from = state.agent
  const taken = outcomes.find((outcome) => outcome.ok && from.handoffs.has(outcome.record.name))
  const route = taken && from.handoffs.get(taken.record.name)
  if (!taken || !route) return
  const startedAt = Date.now()
  const target = await route.resolve()
  stampAgent(state)
  state.agent = { ...target, observers: unique([...from.observers, ...target.observers]) }
  if (from.spanOfCall) state.agent.spanOfCall = from.spanOfCall
  const step = { callId: taken.record.id, from: from.name, to: target.name }
  state.trace.push({ type: 'handoff', startedAt, durationMs: Date.now() - startedAt, ...step })
  await state.observe('onHandoff', { runId: state.runId, agent: from.name, from: from.name, to: target.name })
  loop.reopen()
}

/** Marks the assistant messages written since the last mark with the agent answering, in runs of several agents. */
export function stampAgent(state: LoopState): void {
  if (!state.usageByAgent) return
  const agent = state.agent.name
  for (let i = state.unstampedFrom; i < state.messages.length; i++) {
    const message = state.messages[i]
    if (message?.role === 'assistant' && message.agent === undefined)
      state.messages[i] = { ...message, agent }
  }
  state.unstampedFrom = state.messages.length
}

/** The agent named `name` among `root` and the agents it can hand over to, directly or not. */
export async function findTeamMember(root: ResolvedAgent, name: string): Promise<ResolvedAgent | undefined> {
  const seen = new Set<string>()
  const queue: ResolvedAgent[] = [root]
  for (let agent = queue.shift(); agent; agent = queue.shift()) {
    if (agent.name === name) return agent
    for (const route of agent.handoffs.values()) {
      if (seen.has(route.agent)) continue
      seen.add(route.agent)
      queue.push(await route.resolve())
    }
  }
  return undefined
}

function unique(observers: readonly Observer[]): Observer[] {
  return [...new Set(observers)]
}
