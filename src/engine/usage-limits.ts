import type { Usage } from '../types.ts'
import type { UsageLimits } from './options.ts'

interface Spent {
  requests: number
  usage: Usage
  costUsd: number | null
  /** the model of the last reply, named when its price is unknown */
  model?: string
}

/** Which limit stopped a run, and why, in words for `result.error`. */
export interface LimitStop {
  limit: keyof UsageLimits | 'maxIterations'
  reason: string
}

/**
 * The limit a run has reached, or undefined. `before` checks the request count a call is about to reach; `after`
 * checks tokens and cost once a reply is in. A cost limit with an unknown price is reached at once: it cannot be
 * enforced.
 */
export function usageLimitExceeded(
  limits: UsageLimits | undefined,
  spent: Spent,
  when: 'before' | 'after',
): LimitStop | undefined {
  if (!limits) return undefined
  if (when === 'before') {
    const { maxRequests } = limits
    return maxRequests !== undefined && spent.requests > maxRequests
      ? {
          limit: 'maxRequests',
          reason: `Usage limit reached: the next model call would be request ${spent.requests} (maxRequests ${maxRequests}).`,
        }
      : undefined
  }
  if (limits.maxCostUsd !== undefined && spent.costUsd === null) {
    return {
      limit: 'maxCostUsd',
      reason: `Usage limit \`maxCostUsd\` cannot be enforced: the price of model \`${spent.model ?? 'unknown'}\` is unknown. Add it to the agent's \`prices\` option (USD per million tokens), e.g. prices: { '${spent.model ?? 'model'}': { inputMtok: 1, outputMtok: 4 } }.`,
    }
  }
  const { inputTokens, outputTokens } = spent.usage
  const checks: [number | undefined, number, keyof UsageLimits][] = [
    [limits.maxInputTokens, inputTokens, 'maxInputTokens'],
    [limits.maxOutputTokens, outputTokens, 'maxOutputTokens'],
    [limits.maxTotalTokens, inputTokens + outputTokens, 'maxTotalTokens'],
    [limits.maxCostUsd, spent.costUsd ?? 0, 'maxCostUsd'],
  ]
  for (const [limit, value, name] of checks) {
    if (limit !== undefined && value > limit)
      return { limit: name, reason: `Usage limit reached: ${value} > ${name} ${limit}.` }
  }
  return undefined
}
