import type { calcPrice as CalcPrice, ModelInfo, Provider } from '@pydantic/genai-prices'
import type { Usage } from '../types.ts'

/** Token counts as the price table names them. */
export type PricedTokens = Parameters<typeof CalcPrice>[0]

/** `usage` as the price table counts it; cache reads and writes are priced as such (part of `inputTokens`). */
export function pricedTokens(usage: Usage): PricedTokens {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
  }
}

let calcPrice: typeof CalcPrice | undefined
/** `provider id \0 model` → the provider narrowed to the one model the table matched for it; null: no price */
const matched = new Map<string, Provider | null>()

/** Loads the @pydantic/genai-prices table once (about 800 KB of code); only runs that price a call pay for it. */
export async function loadPriceTable(): Promise<void> {
  calcPrice ??= (await import('@pydantic/genai-prices')).calcPrice
}

/**
 * The table's USD price of `tokens` on `model`, sold by `providerId` when given (else found by the model's name
 * alone); null when the table has no price for it, or is not loaded yet (`loadPriceTable`).
 *
 * The table finds a model by trying every model's match rules in turn, 0.1–0.2 ms a call; the model found for a
 * provider and model name is remembered, and later calls look it up in a provider narrowed to it. The price itself
 * (tiers, dated prices) is still the table's own.
 */
export function tablePrice(tokens: PricedTokens, model: string, providerId?: string): number | null {
  if (!calcPrice) return null
  const key = `${providerId ?? ''}\0${model}`
  const narrowed = matched.get(key)
  if (narrowed === null) return null
  if (narrowed) return calcPrice(tokens, model, { provider: narrowed })?.total_price ?? null
  const result = calcPrice(tokens, model, providerId === undefined ? {} : { providerId })
  // litellm's model names carry the provider the table then finds: left unnarrowed
  if (providerId?.toLowerCase() !== 'litellm')
    matched.set(key, result && narrowedTo(result.provider, result.model))
  return result?.total_price ?? null
}

/** `provider` with `model` as its only model (found in a fallback provider or its own) */
function narrowedTo(provider: Provider, model: ModelInfo): Provider {
  const { fallback_model_providers: _fallbacks, ...rest } = provider
  return { ...rest, models: [model] }
}
