import type { Usage } from '../types.ts'
import type { UsageLimits } from './options.ts'

interface Spent {
  requests: number
  usage: Usage
  costUsd: number | null
}

/**
 * The reason a limit is exceeded, or undefined. `before` checks the request count a call is about to reach;
 * `after` checks tokens and cost once a reply is in.
 */
export function usageLimitExceeded(
  limits: UsageLimits | undefined,
  spent: Spent,
  when: 'before' | 'after',
): string | undefined {
  if (!limits) return undefined
  if (when === 'before') {
    const { maxRequests } = limits
    return maxRequests !== undefined && spent.requests > maxRequests
      ? `Usage limit reached: the next model call would be request ${spent.requests} (maxRequests ${maxRequests}).`
      : undefined
  }
  const { inputTokens, outputTokens } = spent.usage
  const checks: [number | undefined, number, string][] = [
    [limits.maxInputTokens, inputTokens, 'maxInputTokens'],
    [limits.maxOutputTokens, outputTokens, 'maxOutputTokens'],
    [limits.maxTotalTokens, inputTokens + outputTokens, 'maxTotalTokens'],
    [limits.maxCostUsd, spent.costUsd ?? 0, 'maxCostUsd'],
  ]
  for (const [limit, value, name] of checks) {
    if (limit !== undefined && value > limit) return `Usage limit reached: ${value} > ${name} ${limit}.`
  }
  return undefined
}
