import type { Completion } from '../providers/provider.ts'
import { addUsage } from '../types.ts'
import type { AgentUsage } from './agents/agent-usage.ts'
import type { LoopState } from './loop-state.ts'
import { costOf } from './pricing.ts'
import { usageLimitExceeded, type LimitStop } from './usage-limits.ts'

/** The usage limit the next model call would go over (`maxRequests`), or undefined. */
export function limitBeforeCall(state: LoopState): LimitStop | undefined {
  const { requests, usage, costUsd } = state
  return usageLimitExceeded(state.agent.limits, { requests: requests + 1, usage, costUsd }, 'before')
}

/**
 * Adds a reply's request, tokens and cost to what the run has spent; returns the usage limit that this reply went
 * over, or undefined.
 */
export function chargeCompletion(state: LoopState, completion: Completion): LimitStop | undefined {
  const { agent } = state
  state.requests++
  state.providerUsed = completion.providerId ?? agent.provider.id
  state.usage = addUsage(state.usage, completion.usage)
  const cost = costOf(
    state.providerUsed.split(':')[0] ?? '',
    completion.model,
    completion.usage,
    agent.prices,
  )
  state.costUsd = state.costUsd === null || cost === null ? null : state.costUsd + cost
  if (state.usageByAgent)
    chargeAgent(state, agent.name, { usage: completion.usage, costUsd: cost, requests: 1 })
  const { requests, usage, costUsd } = state
  return usageLimitExceeded(agent.limits, { requests, usage, costUsd, model: completion.model }, 'after')
}

/** Adds a call made for the run outside its iterations (a memory summary) to what the run and its agent spent. */
export function chargeExtraCall(state: LoopState, providerId: string, completion: Completion): void {
  state.requests++
  state.usage = addUsage(state.usage, completion.usage)
  const cost = costOf(providerId.split(':')[0] ?? '', completion.model, completion.usage, state.agent.prices)
  state.costUsd = state.costUsd === null || cost === null ? null : state.costUsd + cost
  chargeAgent(state, state.agent.name, { usage: completion.usage, costUsd: cost, requests: 1 })
}

/** Adds spending to one agent's figures, in runs that keep them (several agents took part). */
export function chargeAgent(state: LoopState, agent: string, spent: AgentUsage): void {
  const byAgent = state.usageByAgent
  if (!byAgent) return
  const before = byAgent.get(agent)
  byAgent.set(
    agent,
    before
      ? {
          usage: addUsage(before.usage, spent.usage),
          costUsd: before.costUsd === null || spent.costUsd === null ? null : before.costUsd + spent.costUsd,
          requests: before.requests + spent.requests,
        }
      : { ...spent },
  )
}
