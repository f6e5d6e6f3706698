import type { Usage } from '../types.ts'
import { loadPriceTable, pricedTokens, tablePrice } from '../util/price-table.ts'

/**
 * The USD cost of `usage` on `model`, from the @pydantic/genai-prices table; null when the model has no known
 * price. `model` may carry its provider: `gpt-4.1-mini`, `openai/gpt-4.1-mini`, `openai:gpt-4.1-mini`. Cache
 * reads and writes are priced as such (they are part of `inputTokens`).
 */
export async function costOf(usage: Usage, model: string): Promise<number | null> {
  await loadPriceTable()
  const [provider, name] = splitModel(model)
  const tokens = pricedTokens(usage)
  return (provider === undefined ? null : tablePrice(tokens, name, provider)) ?? tablePrice(tokens, name)
}

/** `openai.chat` (an AI SDK provider id), `openai/…`, `openai:…` → `openai`. */
function splitModel(model: string): [string | undefined, string] {
  const match = /^([\w.-]+)[/:](.+)$/.exec(model)
  return match ? [match[1]?.split('.')[0], match[2] ?? model] : [undefined, model]
}

/** The cost of a run made of model calls: null as soon as one call's usage or price is unknown. */
export async function costOfCalls(
  calls: readonly { model: string; usage: Usage | null }[],
): Promise<number | null> {
  if (calls.length === 0) return null
  let total = 0
  for (const call of calls) {
    if (call.usage === null) return null
    const cost = await costOf(call.usage, call.model)
    if (cost === null) return null
    total += cost
  }
  return total
}
