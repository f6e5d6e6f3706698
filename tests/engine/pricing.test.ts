import { describe, expect, test } from 'vitest'
import { Agent } from '../../src/index.ts'
import { costOf } from '../../src/engine/pricing.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const million = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens: inputTokens * 1_000_000,
  outputTokens: outputTokens * 1_000_000,
  cacheReadTokens: cacheReadTokens * 1_000_000,
  cacheWriteTokens: cacheWriteTokens * 1_000_000,
})

describe('costOf', () => {
  test('prices tokens with an override in USD per million tokens', () => {
    const prices = { 'my-model': { inputMtok: 1, outputMtok: 4 } }

    expect(costOf('acme', 'my-model', million(2, 1), prices)).toBe(6)
  })

  test('prices cache reads and writes at their own rates, falling back to the input rate', () => {
    const withRates = { m: { inputMtok: 1, outputMtok: 0, cacheReadMtok: 0.1, cacheWriteMtok: 2 } }
    const withoutRates = { m: { inputMtok: 1, outputMtok: 0 } }

    expect(costOf('acme', 'm', million(4, 0, 1, 1), withRates)).toBeCloseTo(2 + 0.1 + 2)
    expect(costOf('acme', 'm', million(4, 0, 1, 1), withoutRates)).toBe(4)
  })

  test('returns null for the offline providers without an override', () => {
    expect(costOf('scripted', 'scripted', million(1, 1))).toBeNull()
    expect(costOf('local', 'local', million(1, 1))).toBeNull()
  })
})

describe('cost of a run', () => {
  test('is null when the model price is unknown', async () => {
    const provider = new ScriptedProvider([{ text: 'Hi.', usage: { inputTokens: 10, outputTokens: 5 } }])

    const result = await new Agent({ model: provider }).run('Hi')

    expect(result.costUsd).toBeNull()
  })

  test('is computed from price overrides keyed by the model that answered', async () => {
    const provider = new ScriptedProvider(
      [
        { text: '', toolCalls: [{ name: 'nope' }], usage: { inputTokens: 1_000_000, outputTokens: 0 } },
        { text: 'Hi.', usage: { inputTokens: 1_000_000, outputTokens: 500_000 } },
      ],
      { model: 'acme-1' },
    )
    const agent = new Agent({ model: provider, prices: { 'acme-1': { inputMtok: 3, outputMtok: 10 } } })

    const result = await agent.run('Hi')

    expect(result.costUsd).toBe(3 + 3 + 5)
  })

  test('is traced per model call, null for a call whose model has no price', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'nope' }], model: 'acme-1', usage: { inputTokens: 1_000_000, outputTokens: 0 } },
      { text: 'Hi.', model: 'mystery' },
    ])
    const agent = new Agent({ model: provider, prices: { 'acme-1': { inputMtok: 3, outputMtok: 10 } } })

    const result = await agent.run('Hi')

    const calls = result.trace.filter((step) => step.type === 'llm_call')
    expect(calls.map((step) => step.costUsd)).toEqual([3, null])
  })

  test('is null when any call used a model without a price', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'nope' }], model: 'acme-1' },
      { text: 'Hi.', model: 'mystery' },
    ])
    const agent = new Agent({ model: provider, prices: { 'acme-1': { inputMtok: 3, outputMtok: 10 } } })

    const result = await agent.run('Hi')

    expect(result.costUsd).toBeNull()
  })

  test('comes from the genai-prices table for a known model', async () => {
    const provider = new ScriptedProvider([{ text: 'Hi.', usage: million(1, 1) }], {
      id: 'openai:gpt-4o',
      model: 'gpt-4o',
    })

    const result = await new Agent({ model: provider }).run('Hi')

    expect(result.costUsd).toBeCloseTo(2.5 + 10)
  })

  test('prices an `openai-responses:` model as OpenAI sells it', async () => {
    const provider = new ScriptedProvider([{ text: 'Hi.', usage: million(1, 1) }], {
      id: 'openai-responses:gpt-4o',
      model: 'gpt-4o',
    })

    const result = await new Agent({ model: provider }).run('Hi')

    expect(result.costUsd).toBeCloseTo(2.5 + 10)
  })

  test('is null for a model the price table does not know', async () => {
    const provider = new ScriptedProvider([{ text: 'Hi.', usage: million(1, 1) }], {
      id: 'openai:no-such-model',
      model: 'no-such-model-xyz',
    })

    const result = await new Agent({ model: provider }).run('Hi')

    expect(result.costUsd).toBeNull()
  })
})
