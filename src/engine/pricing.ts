import type { Usage } from '../types.ts'
import { pricedTokens, tablePrice } from '../util/price-table.ts'
import type { ModelPrice } from './options.ts'

const priceProviders: Record<string, string> = { 'openai-responses': 'openai' }

/**
 * The USD cost of one call, or null when the model's price is unknown. `providerId` is the provider part of a
 * model string (`openai`, `anthropic`); overrides are USD per million tokens keyed by model name.
 */
export function costOf(
  providerId: string,
  model: string,
  usage: Usage,
  overrides?: Record<string, ModelPrice>,
): number | null {
  const override = overrides?.[model]
  if (override) {
    const uncached = usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens
    const perMillion =
      uncached * override.inputMtok +
      usage.cacheReadTokens * (override.cacheReadMtok ?? override.inputMtok) +
      usage.cacheWriteTokens * (override.cacheWriteMtok ?? override.inputMtok) +
      usage.outputTokens * override.outputMtok
    return perMillion / 1_000_000
  }
  if (providerId === 'local' || providerId === 'scripted') return null
  // a model string's prefix names the API; the price table knows the company that sells the model
  providerId = priceProviders[providerId] ?? providerId
  return tablePrice(
    pricedTokens(usage),
    model,
    // `aisdk:<package>/<model>` names no vendor: the table finds the model by its name alone
    providerId === 'aisdk' ? undefined : providerId,
  )
}
