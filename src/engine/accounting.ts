import type { Completion } from '../providers/provider.ts'
import { addUsage } from '../types.ts'
import type { LoopState } from './loop-state.ts'
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
  const cost = state.priceOf(completion)
  state.costUsd = state.costUsd === null || cost === null ? null : state.costUsd + cost
  const { requests, usage, costUsd } = state
  return usageLimitExceeded(agent.limits, { requests, usage, costUsd, model: completion.model }, 'after')
}
