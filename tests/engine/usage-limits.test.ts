import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool } from '../../src/index.ts'
import { usageLimitExceeded } from '../../src/engine/usage-limits.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const echo = tool({
  name: 'echo',
  description: 'Echoes',
  parameters: z.object({}),
  execute: () => 'echo',
})

const callEcho = (inputTokens: number, outputTokens: number) => ({
  text: 'Calling echo.',
  toolCalls: [{ name: 'echo' }],
  usage: { inputTokens, outputTokens },
})

describe('usageLimitExceeded', () => {
  const spent = (requests: number, inputTokens: number, outputTokens: number, costUsd: number | null) => ({
    requests,
    usage: { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd,
  })

  test('reports nothing without limits', () => {
    expect(usageLimitExceeded(undefined, spent(100, 1e9, 1e9, 1e6), 'after')).toBeUndefined()
  })

  test('checks the request count before a call', () => {
    expect(usageLimitExceeded({ maxRequests: 2 }, spent(2, 0, 0, 0), 'before')).toBeUndefined()
    expect(usageLimitExceeded({ maxRequests: 2 }, spent(3, 0, 0, 0), 'before')?.reason).toBe(
      'Usage limit reached: the next model call would be request 3 (maxRequests 2).',
    )
  })

  test('checks tokens and cost after a call', () => {
    expect(usageLimitExceeded({ maxInputTokens: 10 }, spent(1, 11, 0, 0), 'after')?.reason).toBe(
      'Usage limit reached: 11 > maxInputTokens 10.',
    )
    expect(usageLimitExceeded({ maxOutputTokens: 10 }, spent(1, 0, 11, 0), 'after')?.reason).toBe(
      'Usage limit reached: 11 > maxOutputTokens 10.',
    )
    expect(usageLimitExceeded({ maxTotalTokens: 10 }, spent(1, 6, 5, 0), 'after')?.reason).toBe(
      'Usage limit reached: 11 > maxTotalTokens 10.',
    )
    expect(usageLimitExceeded({ maxCostUsd: 0.5 }, spent(1, 0, 0, 0.75), 'after')?.reason).toBe(
      'Usage limit reached: 0.75 > maxCostUsd 0.5.',
    )
    expect(usageLimitExceeded({ maxTotalTokens: 11 }, spent(1, 6, 5, 0), 'after')).toBeUndefined()
  })
})

describe('usage limits in a run', () => {
  test('stops with usage_limit before a call would pass maxRequests', async () => {
    const provider = new ScriptedProvider([callEcho(1, 1)])
    const agent = new Agent({ model: provider, tools: [echo], limits: { maxRequests: 1 } })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('usage_limit')
    expect(result.error).toBe('Usage limit reached: the next model call would be request 2 (maxRequests 1).')
    expect(result.output).toBe('Calling echo.')
    expect(result.requests).toBe(1)
    provider.assertDone()
  })

  test('stops with usage_limit once the tokens pass the limit, without running the tools asked for', async () => {
    let ran = false
    const watched = tool({
      name: 'echo',
      description: 'Echoes',
      parameters: z.object({}),
      execute: () => {
        ran = true
        return 'echo'
      },
    })
    const provider = new ScriptedProvider([callEcho(900, 200)])
    const agent = new Agent({ model: provider, tools: [watched], limits: { maxTotalTokens: 1000 } })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('usage_limit')
    expect(result.error).toBe('Usage limit reached: 1100 > maxTotalTokens 1000.')
    expect(ran).toBe(false)
  })

  test('stops with usage_limit once the cost passes maxCostUsd', async () => {
    const provider = new ScriptedProvider([callEcho(1_000_000, 0)], { model: 'acme-1' })
    const agent = new Agent({
      model: provider,
      tools: [echo],
      prices: { 'acme-1': { inputMtok: 2, outputMtok: 2 } },
      limits: { maxCostUsd: 1 },
    })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('usage_limit')
    expect(result.error).toBe('Usage limit reached: 2 > maxCostUsd 1.')
  })

  test('keeps the final answer that passed a token limit', async () => {
    const provider = new ScriptedProvider([
      { text: 'A long answer.', usage: { inputTokens: 5, outputTokens: 50 } },
    ])
    const agent = new Agent({ model: provider, limits: { maxOutputTokens: 10 } })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('usage_limit')
    expect(result.output).toBe('A long answer.')
  })

  test('finishes normally within the limits', async () => {
    const provider = new ScriptedProvider([
      callEcho(10, 10),
      { text: 'Done.', usage: { inputTokens: 10, outputTokens: 10 } },
    ])
    const agent = new Agent({
      model: provider,
      tools: [echo],
      limits: { maxRequests: 2, maxTotalTokens: 40 },
    })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('final')
  })
})

describe('limit stops are traced and observed', () => {
  const observed = () => {
    const events: { limit: string; reason: string }[] = []
    return {
      events,
      observer: {
        onLimit: ({ limit, reason }: { limit: string; reason: string }) =>
          void events.push({ limit, reason }),
      },
    }
  }

  test('maxCostUsd with an unknown price stops after the first call and says how to price the model', async () => {
    let ran = false
    const watched = tool({
      name: 'echo',
      description: 'Echoes',
      parameters: z.object({}),
      execute: () => {
        ran = true
        return 'echo'
      },
    })
    const { events, observer } = observed()
    const provider = new ScriptedProvider([callEcho(10, 10), 'Done.'], { model: 'mystery-1' })
    const agent = new Agent({
      model: provider,
      tools: [watched],
      limits: { maxCostUsd: 5 },
      observers: [observer],
    })

    const result = await agent.run('Go')

    const reason =
      "Usage limit `maxCostUsd` cannot be enforced: the price of model `mystery-1` is unknown. Add it to the agent's `prices` option (USD per million tokens), e.g. prices: { 'mystery-1': { inputMtok: 1, outputMtok: 4 } }."
    expect(result.stopReason).toBe('usage_limit')
    expect(result.error).toBe(reason)
    expect(result.costUsd).toBeNull()
    expect(ran).toBe(false)
    expect(provider.calls).toHaveLength(1)
    expect(result.trace.filter((step) => step.type === 'limit')).toMatchObject([
      { limit: 'maxCostUsd', reason },
    ])
    expect(events).toEqual([{ limit: 'maxCostUsd', reason }])
  })

  test('a priced model runs on under maxCostUsd', async () => {
    const provider = new ScriptedProvider([callEcho(10, 10), 'Done.'], { model: 'acme-1' })
    const agent = new Agent({
      model: provider,
      tools: [echo],
      prices: { 'acme-1': { inputMtok: 1, outputMtok: 1 } },
      limits: { maxCostUsd: 5 },
    })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('final')
  })

  test('maxRequests and maxIterations stops get a trace step and an observer event', async () => {
    const requests = observed()
    const byRequests = await new Agent({
      model: new ScriptedProvider([callEcho(1, 1)]),
      tools: [echo],
      limits: { maxRequests: 1 },
      observers: [requests.observer],
    }).run('Go')
    const iterations = observed()
    const byIterations = await new Agent({
      model: new ScriptedProvider([callEcho(1, 1)]),
      tools: [echo],
      maxIterations: 1,
      observers: [iterations.observer],
    }).run('Go')

    expect(requests.events.map((event) => event.limit)).toEqual(['maxRequests'])
    expect(byRequests.trace.at(-1)).toMatchObject({
      type: 'limit',
      limit: 'maxRequests',
      reason: byRequests.error,
    })
    expect(iterations.events).toEqual([
      {
        limit: 'maxIterations',
        reason: 'Stopped after 1 model calls (maxIterations) without a final answer.',
      },
    ])
    expect(byIterations.stopReason).toBe('max_iterations')
    expect(byIterations.trace.at(-1)).toMatchObject({ type: 'limit', limit: 'maxIterations' })
  })
})
