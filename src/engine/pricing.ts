import type { Usage } from '../types.ts'
import type { ModelPrice } from './options.ts'

type CalcPrice = typeof import('@pydantic/genai-prices').calcPrice

let calcPrice: CalcPrice | undefined

const priceProviders: Record<string, string> = { 'openai-responses': 'openai' }

/** Loads the price table once; it is large, so only runs that need a price pay for it. */
export async function loadPrices(): Promise<void> {
  calcPrice ??= (await import('@pydantic/genai-prices')).calcPrice
}

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
  if (!calcPrice || providerId === 'local' || providerId === 'scripted') return null
  // a model string's prefix names the API; the price table knows the company that sells the model
  providerId = priceProviders[providerId] ?? providerId
  const result = calcPrice(
    {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cache_read_tokens: usage.cacheReadTokens,
      cache_write_tokens: usage.cacheWriteTokens,
    },
    model,
    // `aisdk:<package>/<model>` names no vendor: the table finds the model by its name alone
    providerId === 'aisdk' ? {} : { providerId },
  )
  return result ? result.total_price : null
}
