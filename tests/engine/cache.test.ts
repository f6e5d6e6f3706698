import { afterEach, describe, expect, test, vi } from 'vitest'
import { z } from 'zod'
import { Agent, MemoryCache, tool, type AgentEvent, type Completion } from '../../src/index.ts'
import { cacheKey } from '../../src/engine/cache-key.ts'
import { canonicalJson } from '../../src/util/canonical-json.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const completion = (text: string): Completion => ({
  message: { text, toolCalls: [] },
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  finishReason: 'stop',
  model: 'scripted',
})

const textOf = (value: unknown) => (value as Completion | undefined)?.message.text

describe('MemoryCache', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  test('returns what was stored under a key', () => {
    const cache = new MemoryCache()
    cache.set('k', completion('hello'))

    expect(cache.get('k')).toEqual(completion('hello'))
    expect(cache.get('other')).toBeUndefined()
  })

  test('returns copies, so callers cannot change a stored entry', () => {
    const cache = new MemoryCache()
    const stored = completion('hello')
    cache.set('k', stored)
    stored.message.text = 'changed'
    const first = cache.get('k') as Completion | undefined
    if (first) first.message.text = 'changed too'

    expect(textOf(cache.get('k'))).toBe('hello')
  })

  test('drops the least recently used entry when full', () => {
    const cache = new MemoryCache({ maxEntries: 2 })
    cache.set('a', completion('a'))
    cache.set('b', completion('b'))
    cache.get('a')
    cache.set('c', completion('c'))

    expect(cache.get('b')).toBeUndefined()
    expect(textOf(cache.get('a'))).toBe('a')
    expect(textOf(cache.get('c'))).toBe('c')
    expect(cache.size).toBe(2)
  })

  test('expires entries after ttlMs', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const cache = new MemoryCache({ ttlMs: 1000 })
    cache.set('k', completion('hello'))

    vi.advanceTimersByTime(999)
    expect(textOf(cache.get('k'))).toBe('hello')
    vi.advanceTimersByTime(1)
    expect(cache.get('k')).toBeUndefined()
    expect(cache.size).toBe(0)
  })
})

describe('cacheKey', () => {
  const request = { messages: [{ role: 'user' as const, content: 'Hi' }], tools: [] }

  test('is the same for requests that differ only in key order', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}')
    expect(cacheKey('p', { tools: [], messages: request.messages }, 0)).toBe(cacheKey('p', request, 0))
  })

  test('differs by provider, messages, tools, settings and trial', () => {
    const base = cacheKey('p', request, 0)
    const variants = [
      cacheKey('q', request, 0),
      cacheKey('p', { ...request, messages: [{ role: 'user', content: 'Hello' }] }, 0),
      cacheKey('p', { ...request, tools: [{ name: 't', description: '', parameters: {} }] }, 0),
      cacheKey('p', { ...request, settings: { temperature: 0 } }, 0),
      cacheKey('p', request, 1),
    ]

    expect(new Set([base, ...variants]).size).toBe(6)
  })
})

describe('the response cache in a run', () => {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `22C in ${city}`,
  })
  const script = () =>
    new ScriptedProvider([
      {
        toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }],
        usage: { inputTokens: 10, outputTokens: 2 },
      },
      { text: 'It is 22C.', usage: { inputTokens: 20, outputTokens: 3 } },
    ])

  test('answers a repeated run from the cache and shows the hits in the trace', async () => {
    const provider = script()
    const agent = new Agent({ model: provider, tools: [getWeather], cache: new MemoryCache() })

    const first = await agent.run('Weather?')
    const second = await agent.run('Weather?')

    expect(provider.calls).toHaveLength(2)
    expect(second.output).toBe('It is 22C.')
    expect(second.trace.map((step) => step.type)).toEqual([
      'cache_hit',
      'tool_call',
      'tool_result',
      'cache_hit',
    ])
    expect(second.trace[0]).toMatchObject({ type: 'cache_hit', iteration: 1, providerId: 'scripted' })
    expect(first.trace.some((step) => step.type === 'cache_hit')).toBe(false)
  })

  test('still counts the usage and requests of cache hits', async () => {
    const provider = script()
    const agent = new Agent({ model: provider, tools: [getWeather], cache: new MemoryCache() })

    const first = await agent.run('Weather?')
    const second = await agent.run('Weather?')

    expect(second.usage).toEqual(first.usage)
    expect(second.usage).toMatchObject({ inputTokens: 30, outputTokens: 5 })
    expect(second.requests).toBe(2)
    expect(second.iterations).toBe(2)
  })

  test('tells observers a reply came from the cache', async () => {
    const cached: boolean[] = []
    const agent = new Agent({
      model: new ScriptedProvider(['Hi.']),
      cache: new MemoryCache(),
      observers: [{ onLlmEnd: (event) => void cached.push(event.cached) }],
    })

    await agent.run('Hi')
    await agent.run('Hi')

    expect(cached).toEqual([false, true])
  })

  test('keeps trials apart through the trial index in the key', async () => {
    const provider = new ScriptedProvider(['First trial.', 'Second trial.'])
    const agent = new Agent({ model: provider, cache: new MemoryCache() })

    const first = await agent.run('Hi', { trial: 0 })
    const second = await agent.run('Hi', { trial: 1 })
    const again = await agent.run('Hi', { trial: 1 })

    expect([first.output, second.output, again.output]).toEqual([
      'First trial.',
      'Second trial.',
      'Second trial.',
    ])
    provider.assertDone()
  })

  test('misses when the input differs', async () => {
    const provider = new ScriptedProvider(['One.', 'Two.'])
    const agent = new Agent({ model: provider, cache: new MemoryCache() })

    await agent.run('Hi')
    const other = await agent.run('Hello')

    expect(other.output).toBe('Two.')
  })

  test('does not cache failed calls', async () => {
    const provider = new ScriptedProvider([{ error: new Error('down') }, 'Up again.'])
    const agent = new Agent({ model: provider, cache: new MemoryCache() })

    const failed = await agent.run('Hi')
    const retried = await agent.run('Hi')

    expect(failed.stopReason).toBe('error')
    expect(retried.output).toBe('Up again.')
  })

  test('accepts an async cache implementation', async () => {
    const store = new Map<string, Completion>()
    const cache = {
      get: async (key: string) => store.get(key),
      set: async (key: string, value: Completion) => {
        store.set(key, value)
      },
    }
    const provider = new ScriptedProvider(['Hi.'])
    const agent = new Agent({ model: provider, cache })

    await agent.run('Hi')
    const second = await agent.run('Hi')

    expect(second.output).toBe('Hi.')
    expect(store.size).toBe(1)
  })

  test('streams the text of a cached reply', async () => {
    const agent = new Agent({ model: new ScriptedProvider(['Hello there.']), cache: new MemoryCache() })
    await agent.run('Hi')

    const events: AgentEvent[] = []
    for await (const event of agent.stream('Hi')) events.push(event)

    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'Hello there.', iteration: 1 },
    ])
  })
})
