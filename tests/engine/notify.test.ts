import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool, type Observer } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `22C in ${city}`,
})

const script = () =>
  new ScriptedProvider([
    {
      toolCalls: [
        { name: 'get_weather', args: { city: 'Paris' }, id: 'c1' },
        { name: 'get_weather', args: {}, id: 'c2' },
      ],
    },
    'It is 22C in Paris.',
  ])

/** every hook of Observer, recording its name and the ids it was given */
function recorder() {
  const events: { hook: string; runId: string; callId?: string }[] = []
  const hooks = [
    'onRunStart',
    'onLlmStart',
    'onLlmEnd',
    'onRetry',
    'onFallback',
    'onToolStart',
    'onToolChunk',
    'onToolEnd',
    'onToolError',
    'onPolicyDecision',
    'onRunEnd',
  ] as const
  const observer: Observer = Object.fromEntries(
    hooks.map((hook) => [
      hook,
      (event: { runId: string; callId?: string }) => {
        events.push({
          hook,
          runId: event.runId,
          ...(event.callId === undefined ? {} : { callId: event.callId }),
        })
      },
    ]),
  )
  return { events, observer }
}

describe('observers', () => {
  test('get each hook in order with the run id and the call id', async () => {
    const { events, observer } = recorder()
    const agent = new Agent({
      model: script(),
      tools: [getWeather],
      parallelTools: false,
      observers: [observer],
    })

    const result = await agent.run('Weather?')

    const runId = result.runId
    expect(events).toEqual([
      { hook: 'onRunStart', runId },
      { hook: 'onLlmStart', runId },
      { hook: 'onLlmEnd', runId },
      { hook: 'onToolStart', runId, callId: 'c1' },
      { hook: 'onToolEnd', runId, callId: 'c1' },
      { hook: 'onToolError', runId, callId: 'c2' },
      { hook: 'onLlmStart', runId },
      { hook: 'onLlmEnd', runId },
      { hook: 'onRunEnd', runId },
    ])
  })

  test('get the details of each event', async () => {
    const seen: unknown[] = []
    const agent = new Agent({
      name: 'weather-bot',
      model: script(),
      tools: [getWeather],
      parallelTools: false,
      observers: [
        {
          onRunStart: ({ agent, input }) => void seen.push(['start', agent, input]),
          onLlmEnd: ({ iteration, cached, completion }) =>
            void seen.push(['llm', iteration, cached, completion.message.toolCalls.length]),
          onToolEnd: ({ call }) => void seen.push(['tool', call.name, call.result]),
          onToolError: ({ call }) => void seen.push(['error', call.name, call.error?.split('\n')[1]]),
          onRunEnd: ({ result }) => void seen.push(['end', result.stopReason]),
        },
      ],
    })

    await agent.run('Weather?')

    expect(seen).toEqual([
      ['start', 'weather-bot', 'Weather?'],
      ['llm', 1, false, 2],
      ['tool', 'get_weather', '22C in Paris'],
      ['error', 'get_weather', '- city: expected string, received undefined'],
      ['llm', 2, false, 0],
      ['end', 'final'],
    ])
  })

  test('a throwing observer never breaks a run, and later observers still run', async () => {
    const { events, observer } = recorder()
    const throwing: Observer = {
      onRunStart: () => {
        throw new Error('observer bug')
      },
      onLlmEnd: () => {
        throw new Error('observer bug')
      },
      onToolEnd: () => {
        throw new Error('observer bug')
      },
      onRunEnd: () => {
        throw new Error('observer bug')
      },
    }
    const agent = new Agent({ model: script(), tools: [getWeather], observers: [throwing, observer] })

    const result = await agent.run('Weather?')

    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('It is 22C in Paris.')
    expect(events).toHaveLength(9)
  })

  test('a rejecting async observer never breaks a run', async () => {
    // an unhandled rejection would fail this test file
    const rejecting: Observer = {
      onRunStart: async () => Promise.reject(new Error('observer bug')),
      onToolStart: async () => Promise.reject(new Error('observer bug')),
      onRunEnd: async () => Promise.reject(new Error('observer bug')),
    }
    const agent = new Agent({ model: script(), tools: [getWeather], observers: [rejecting] })

    const result = await agent.run('Weather?')
    await new Promise((resolve) => setImmediate(resolve))

    expect(result.stopReason).toBe('final')
  })

  test('are not awaited by the loop', async () => {
    let finished = false
    const slow: Observer = {
      onLlmStart: () => new Promise<void>(() => undefined),
      onRunEnd: () => {
        finished = true
      },
    }
    const agent = new Agent({ model: new ScriptedProvider(['Hi.']), observers: [slow] })

    await agent.run('Hi')

    expect(finished).toBe(true)
  }, 1000)
})
