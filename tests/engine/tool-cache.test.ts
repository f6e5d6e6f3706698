import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, MemoryCache, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

function countingRates() {
  const runs: string[] = []
  const rates = tool({
    name: 'exchange_rate',
    description: 'The exchange rate between two currencies',
    parameters: z.object({ from: z.string(), to: z.string(), note: z.string().optional() }),
    readOnly: true,
    cache: { key: ({ from, to }) => [from, to] },
    execute: ({ from, to }) => {
      runs.push(`${from}->${to}`)
      return { rate: 1.1 }
    },
  })
  return { runs, rates }
}

const ask = (args: object, id: string) => ({ toolCalls: [{ name: 'exchange_rate', args, id }] })

describe('tool-result cache', () => {
  test('reuses a result within a run, keyed by key(args), and traces the hit', async () => {
    const { runs, rates } = countingRates()
    const provider = new ScriptedProvider([
      ask({ from: 'EUR', to: 'USD' }, 'c1'),
      ask({ from: 'EUR', to: 'USD', note: 'again' }, 'c2'),
      ask({ from: 'EUR', to: 'GBP' }, 'c3'),
      'Done.',
    ])
    const agent = new Agent({ model: provider, tools: [rates] })

    const result = await agent.run('Rates?')

    expect(runs).toEqual(['EUR->USD', 'EUR->GBP'])
    expect(result.toolCalls.map((call) => call.result)).toEqual([{ rate: 1.1 }, { rate: 1.1 }, { rate: 1.1 }])
    const hits = result.trace.filter((step) => step.type === 'tool_cache_hit')
    expect(hits.map((step) => [step.callId, step.name])).toEqual([['c2', 'exchange_rate']])
    expect(hits[0]?.key).toMatch(/^tool:exchange_rate:[0-9a-f]{64}$/)
  })

  test('reuses results across runs through the agent’s cache, which counts hits and misses', async () => {
    const { runs, rates } = countingRates()
    const cache = new MemoryCache()
    const provider = new ScriptedProvider([
      ask({ from: 'EUR', to: 'USD' }, 'c1'),
      'A.',
      ask({ from: 'EUR', to: 'USD' }, 'c2'),
      'B.',
    ])
    const agent = new Agent({ model: provider, tools: [rates], cache })

    await agent.run('First')
    await agent.run('Second')

    expect(runs).toEqual(['EUR->USD'])
    // each run: two model lookups (misses: the conversations differ) and one tool lookup
    expect(cache.stats()).toEqual({ hits: 1, misses: 5, evictions: 0, size: 5 })
  })

  test('does not cache failures, and a tool without `cache` always runs', async () => {
    let calls = 0
    const flaky = tool({
      name: 'flaky',
      description: 'Fails the first time',
      parameters: z.object({}),
      cache: true,
      execute: () => {
        calls++
        if (calls === 1) throw new Error('busy')
        return 'ok'
      },
    })
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'flaky' }] },
      { toolCalls: [{ name: 'flaky' }] },
      { toolCalls: [{ name: 'flaky' }] },
      'Done.',
    ])

    const result = await new Agent({ model: provider, tools: [flaky] }).run('Go')

    expect(calls).toBe(2)
    expect(result.toolCalls.map((call) => call.error ?? call.result)).toEqual([
      'Tool `flaky` failed: busy',
      'ok',
      'ok',
    ])
  })
})

describe('MemoryCache stats, delete and clear', () => {
  test('counts hits, misses and evictions; delete and clear remove entries', () => {
    const cache = new MemoryCache({ maxEntries: 2 })
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('c', 3)
    cache.get('a')
    cache.get('b')
    cache.delete('b')
    cache.get('b')

    expect(cache.stats()).toEqual({ hits: 1, misses: 2, evictions: 1, size: 1 })
    cache.clear()
    expect(cache.stats().size).toBe(0)
    expect(cache.get('c')).toBeUndefined()
  })

  test('a per-entry ttlMs overrides the cache lifetime', () => {
    const cache = new MemoryCache()
    cache.set('short', 'x', { ttlMs: -1 })
    cache.set('long', 'y')

    expect(cache.get('short')).toBeUndefined()
    expect(cache.get('long')).toBe('y')
  })
})
