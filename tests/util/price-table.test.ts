/**
 * `tablePrice` remembers which model the price table matched for a provider and model name, and prices later calls
 * in a provider narrowed to that model. The reference is the table's own `calcPrice`, called directly: the memo must
 * never change a price, on the first call or any later one.
 */
import { calcPrice } from '@pydantic/genai-prices'
import { beforeAll, expect, test } from 'vitest'
import { loadPriceTable, tablePrice } from '../../src/util/price-table.ts'

beforeAll(loadPriceTable)

const usages = [
  { input_tokens: 1000, output_tokens: 200 },
  { input_tokens: 250_000, output_tokens: 10, cache_read_tokens: 100_000 },
  { input_tokens: 3, output_tokens: 0 },
]

test.each([
  ['gpt-4.1-mini', 'openai'],
  ['gpt-4.1-mini', undefined],
  ['claude-sonnet-4-5', 'anthropic'],
  // a dated name the table normalizes before it matches
  ['claude-3-5-sonnet-20241022', 'anthropic'],
  // prices in tiers by prompt size
  ['gemini-2.5-pro', 'google'],
  // a provider that sells other providers' models (fallback providers)
  ['gpt-4o', 'azure'],
  ['no-such-model', 'openai'],
  ['gpt-4.1-mini', 'no-such-provider'],
])('%s from %s is priced as the table prices it, every time', (model, providerId) => {
  for (const round of [1, 2, 3])
    for (const usage of usages) {
      const direct = calcPrice(usage, model, providerId === undefined ? {} : { providerId })
      expect(tablePrice(usage, model, providerId), `round ${String(round)}`).toBe(direct?.total_price ?? null)
    }
})

test('a known model has a price, so the comparison above is not of nulls alone', () => {
  expect(tablePrice({ input_tokens: 1_000_000, output_tokens: 0 }, 'gpt-4.1-mini', 'openai')).toBeGreaterThan(
    0,
  )
  expect(tablePrice({ input_tokens: 300_000, output_tokens: 0 }, 'gemini-2.5-pro', 'google')).toBeGreaterThan(
    0,
  )
})
