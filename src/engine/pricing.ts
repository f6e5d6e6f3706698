import type { Usage } from '../types.ts'
import { loadPriceTable, tablePrice } from '../util/price-table.ts'
import type { ModelPrice } from './options.ts'

const priceProviders: Record<string, string> = { 'openai-responses': 'openai' }

/** Loads the price table once; it is large, so only runs that need a price pay for it. */
export const loadPrices = loadPriceTable

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
    {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cache_read_tokens: usage.cacheReadTokens,
      cache_write_tokens: usage.cacheWriteTokens,
    },
    model,
    // `aisdk:<package>/<model>` names no vendor: the table finds the model by its name alone
    providerId === 'aisdk' ? undefined : providerId,
  )
}
