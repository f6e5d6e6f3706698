import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, ConfigError, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `22C in ${city}`,
})

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
})

describe('the loop', () => {
  test('finishes as soon as the model answers without tool calls', async () => {
    const provider = new ScriptedProvider(['Hello there.'])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const result = await agent.run('Hi')

    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('Hello there.')
    expect(result.iterations).toBe(1)
    expect(result.toolCalls).toEqual([])
    provider.assertDone()
  })

  test('sends the tool schemas, runs the tool and sends its result back before the final answer', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }] },
      'It is 22C in Paris.',
    ])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const result = await agent.run('Weather in Paris?')

    expect(provider.calls[0]?.tools.map((schema) => schema.name)).toEqual(['get_weather'])
    expect(provider.calls[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      name: 'get_weather',
      content: '22C in Paris',
    })
    expect(result.output).toBe('It is 22C in Paris.')
    expect(result.iterations).toBe(2)
    provider.assertDone()
  })

  test('stops with max_iterations when the model keeps calling tools', async () => {
    const call = { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }
    const provider = new ScriptedProvider([call, { ...call, text: 'still checking' }])
    const agent = new Agent({ model: provider, tools: [getWeather], maxIterations: 2 })

    const result = await agent.run('Weather?')

    expect(result.stopReason).toBe('max_iterations')
    expect(result.iterations).toBe(2)
    expect(result.output).toBe('still checking')
    expect(result.error).toBe('Stopped after 2 model calls (maxIterations) without a final answer.')
    expect(provider.calls).toHaveLength(2)
    provider.assertDone()
  })

  test('rejects a maxIterations that is not a positive integer', () => {
    expect(() => new Agent({ model: new ScriptedProvider([]), maxIterations: 0 })).toThrow(
      new ConfigError('Agent `agent`: `maxIterations` must be a positive integer, got 0.'),
    )
  })

  test('passes the instructions as the system prompt, computed from deps when a function', async () => {
    const provider = new ScriptedProvider(['ok'])
    const agent = new Agent({
      model: provider,
      instructions: ({ deps }) => `You help ${deps.user}.`,
      deps: { user: 'Ada' },
    })

    await agent.run('Hi')

    expect(provider.calls[0]?.system).toBe('You help Ada.')
  })

  test('passes model settings through to the provider', async () => {
    const provider = new ScriptedProvider(['ok'])
    const agent = new Agent({ model: provider, settings: { temperature: 0, maxTokens: 50 } })

    await agent.run('Hi')

    expect(provider.calls[0]?.settings).toEqual({ temperature: 0, maxTokens: 50 })
  })
})

describe('the result', () => {
  const run = async () => {
    const provider = new ScriptedProvider([
      {
        text: 'Let me check the weather.',
        toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }],
        usage: usage(100, 10),
      },
      { text: 'It is 22C in Paris.', usage: { ...usage(150, 8), cacheReadTokens: 50 } },
    ])
    const agent = new Agent({ model: provider, tools: [getWeather] })
    return agent.run('Weather in Paris?')
  }

  test('records each tool call with its arguments, result and duration', async () => {
    const result = await run()

    expect(result.toolCalls).toHaveLength(1)
    expect(result.toolCalls[0]).toMatchObject({
      id: 'c1',
      name: 'get_weather',
      args: { city: 'Paris' },
      result: '22C in Paris',
    })
    expect(result.toolCalls[0]?.durationMs).toBeGreaterThanOrEqual(0)
  })

  test('holds the whole conversation in messages', async () => {
    const result = await run()

    expect(result.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: 'Let me check the weather.',
        toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: '22C in Paris' },
      { role: 'assistant', content: 'It is 22C in Paris.' },
    ])
  })

  test('traces every step in order as typed steps', async () => {
    const result = await run()

    expect(result.trace.map((step) => step.type)).toEqual([
      'llm_call',
      'tool_call',
      'tool_result',
      'llm_call',
    ])
    expect(result.trace[0]).toMatchObject({
      type: 'llm_call',
      iteration: 1,
      providerId: 'scripted',
      model: 'scripted',
      usage: usage(100, 10),
      finishReason: 'tool_calls',
      toolCalls: 1,
    })
    expect(result.trace[2]).toMatchObject({
      type: 'tool_result',
      callId: 'c1',
      name: 'get_weather',
      ok: true,
      resultChars: '22C in Paris'.length,
    })
  })

  test('sums the usage of every model call', async () => {
    const result = await run()

    expect(result.usage).toEqual({
      inputTokens: 250,
      outputTokens: 18,
      cacheReadTokens: 50,
      cacheWriteTokens: 0,
    })
    expect(result.requests).toBe(2)
  })

  test('keeps what the model showed of its thinking, one entry per model call', async () => {
    const result = await run()

    expect(result.reasoning).toEqual([
      { iteration: 1, text: 'Let me check the weather.', thinking: '' },
      { iteration: 2, text: '', thinking: '' },
    ])
  })

  test('reports the provider that answered and a non-negative duration', async () => {
    const result = await run()

    expect(result.providerUsed).toBe('scripted')
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
    expect(result.runId).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('leaves parsed undefined and sets no error for a plain run', async () => {
    const result = await run()

    expect(result.parsed).toBeUndefined()
    expect(result).not.toHaveProperty('error')
  })
})

describe('history and turns', () => {
  test('continues a conversation from the messages of an earlier run', async () => {
    const provider = new ScriptedProvider(['Paris is in France.', 'Its population is about 2 million.'])
    const agent = new Agent({ model: provider })

    const first = await agent.run('Where is Paris?')
    const second = await agent.run('How many people live there?', { history: first.messages })

    expect(provider.calls[1]?.messages).toEqual([
      { role: 'user', content: 'Where is Paris?' },
      { role: 'assistant', content: 'Paris is in France.' },
      { role: 'user', content: 'How many people live there?' },
    ])
    expect(second.messages).toHaveLength(4)
    expect(second.output).toBe('Its population is about 2 million.')
  })

  test('accepts the input as a list of turns', async () => {
    const provider = new ScriptedProvider(['Rome.'])
    const agent = new Agent({ model: provider })

    await agent.run([
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'And of Italy?' },
    ])

    expect(provider.calls[0]?.messages).toEqual([
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'And of Italy?' },
    ])
  })

  test('does not change the history array it was given', async () => {
    const provider = new ScriptedProvider(['Second answer.'])
    const agent = new Agent({ model: provider })
    const history = [
      { role: 'user' as const, content: 'First question' },
      { role: 'assistant' as const, content: 'First answer.' },
    ]

    await agent.run('Second question', { history })

    expect(history).toHaveLength(2)
  })
})
