import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import {
  Agent,
  ConfigError,
  ProviderError,
  tool,
  type AgentEvent,
  type AgentResult,
} from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `22C in ${city}`,
})

async function collect<Event, Result>(stream: AsyncGenerator<Event, Result>) {
  const events: Event[] = []
  let next = await stream.next()
  while (!next.done) {
    events.push(next.value)
    next = await stream.next()
  }
  return { events, returned: next.value }
}

describe('model strings', () => {
  test('makes the offline local model from `local`', () => {
    expect(new Agent({ model: 'local' }).providerId).toBe('local')
  })

  test('rejects an unknown model with a did-you-mean', () => {
    // the list of known providers grows as providers register, so only the stable start is asserted
    expect(() => new Agent({ model: 'locl' })).toThrow(ConfigError)
    expect(() => new Agent({ model: 'locl' })).toThrow('Unknown model `locl`. Did you mean `local`?')
  })
})

describe('stream()', () => {
  test('yields text deltas, tool events and the final result, and returns the result', async () => {
    const provider = new ScriptedProvider([
      { text: 'Checking now.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }] },
      'It is 22C in Paris.',
    ])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const { events, returned } = await collect(agent.stream('Weather?'))

    const last = events.at(-1)
    expect(events.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'Checking ', iteration: 1 },
      { type: 'text-delta', text: 'now.', iteration: 1 },
      { type: 'tool-call', callId: 'c1', name: 'get_weather', args: { city: 'Paris' } },
      { type: 'tool-result', callId: 'c1', name: 'get_weather', ok: true, result: '22C in Paris' },
      { type: 'text-delta', text: 'It ', iteration: 2 },
      { type: 'text-delta', text: 'is ', iteration: 2 },
      { type: 'text-delta', text: '22C ', iteration: 2 },
      { type: 'text-delta', text: 'in ', iteration: 2 },
      { type: 'text-delta', text: 'Paris.', iteration: 2 },
    ])
    expect(last?.type).toBe('result')
    expect(last?.type === 'result' ? last.result : undefined).toBe(returned)
    expect(returned.output).toBe('It is 22C in Paris.')
  })

  test('yields a failed tool call as a tool-result event with its error', async () => {
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'nope', id: 'c1' }] }, 'Sorry.'])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const { events } = await collect(agent.stream('Go'))

    expect(events.find((event) => event.type === 'tool-result')).toEqual({
      type: 'tool-result',
      callId: 'c1',
      name: 'nope',
      ok: false,
      error: 'Unknown tool `nope`. Available tools: `get_weather`.',
    })
  })

  test('yields the whole text as one delta from a provider that cannot stream', async () => {
    const provider = new ScriptedProvider(['Hello there.'], { streaming: false })
    const agent = new Agent({ model: provider })

    const { events } = await collect(agent.stream('Hi'))

    expect(events.map((event) => event.type)).toEqual(['text-delta', 'result'])
    expect(events[0]).toEqual({ type: 'text-delta', text: 'Hello there.', iteration: 1 })
  })

  test('ends with a result even when the run fails', async () => {
    const provider = new ScriptedProvider([{ error: new Error('down') }])
    const agent = new Agent({ model: provider })

    const { events, returned } = await collect(agent.stream('Hi'))

    expect(events.map((event) => event.type)).toEqual(['result'])
    expect(returned.stopReason).toBe('error')
  })

  test('rethrows an error from the agent code to the consumer, leaving no unhandled rejection', async () => {
    // an unhandled rejection would fail this test file
    const agent = new Agent({
      model: new ScriptedProvider(['Hi.']),
      instructions: () => {
        throw new Error('instructions broke')
      },
    })

    await expect(collect(agent.stream('Hi'))).rejects.toThrow('instructions broke')
    await new Promise((resolve) => setImmediate(resolve))
  })

  test('produces the same result as run()', async () => {
    const replies = [{ toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' }, id: 'c1' }] }, 'Cold.']
    const streamed = await collect(
      new Agent({ model: new ScriptedProvider(replies), tools: [getWeather] }).stream('Weather?'),
    )
    const ran = await new Agent({ model: new ScriptedProvider(replies), tools: [getWeather] }).run('Weather?')

    expect(streamed.returned.messages).toEqual(ran.messages)
    expect(streamed.returned.toolCalls.map((record) => record.result)).toEqual(
      ran.toolCalls.map((record) => record.result),
    )
  })
})

describe('batch()', () => {
  const echoAfter = tool({
    name: 'echo_after',
    description: 'Echoes after a delay',
    parameters: z.object({ text: z.string(), ms: z.number() }),
    execute: async ({ text, ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms))
      return text
    },
  })
  const lastUser = (messages: readonly { role: string; content: string }[]) =>
    messages.findLast((message) => message.role === 'user')?.content ?? ''
  /** calls echo_after with a delay from the input, then answers with the tool result */
  const echoing = (request: { messages: readonly { role: string; content: string }[] }) => {
    const last = request.messages.at(-1)
    if (last?.role === 'tool') return `echo: ${last.content}`
    const [text = '', ms = '0'] = lastUser(request.messages).split(' ')
    return { toolCalls: [{ name: 'echo_after', args: { text, ms: Number(ms) } }] }
  }

  test('returns results in input order even when later inputs finish first', async () => {
    const finished: string[] = []
    const provider = new ScriptedProvider(Array.from({ length: 6 }, () => echoing))
    const agent = new Agent({
      model: provider,
      tools: [echoAfter],
      observers: [{ onRunEnd: ({ result }) => void finished.push(result.output) }],
    })

    const results = await agent.batch(['a 12', 'b 6', 'c 0'], { concurrency: 3 })

    expect(results.map((result) => result.output)).toEqual(['echo: a', 'echo: b', 'echo: c'])
    expect(finished).toEqual(['echo: c', 'echo: b', 'echo: a'])
  })

  test('runs no more inputs at once than its concurrency', async () => {
    let running = 0
    let most = 0
    const agent = new Agent({
      model: new ScriptedProvider(Array.from({ length: 10 }, () => echoing)),
      tools: [echoAfter],
      observers: [
        {
          onRunStart: () => {
            running++
            most = Math.max(most, running)
          },
          onRunEnd: () => {
            running--
          },
        },
      ],
    })

    await agent.batch(['a 1', 'b 1', 'c 1', 'd 1', 'e 1'], { concurrency: 2 })

    expect(most).toBe(2)
  })

  test('isolates a failing input from the others', async () => {
    const fatal = new ProviderError('scripted returned 400: bad input', {
      providerId: 'scripted',
      status: 400,
      retryable: false,
    })
    const provider = new ScriptedProvider(
      Array.from(
        { length: 3 },
        () => (request: { messages: readonly { role: string; content: string }[] }) =>
          lastUser(request.messages) === 'bad' ? { error: fatal } : `ok: ${lastUser(request.messages)}`,
      ),
    )
    const agent = new Agent({ model: provider })

    const results = await agent.batch(['one', 'bad', 'three'])

    expect(results.map((result) => [result.stopReason, result.output])).toEqual([
      ['final', 'ok: one'],
      ['error', ''],
      ['final', 'ok: three'],
    ])
    expect(results[1]?.error).toBe('scripted returned 400: bad input')
  })

  test('turns an input whose run throws into an error result', async () => {
    const agent = new Agent<undefined, { fail: boolean }>({
      model: new ScriptedProvider(['fine']),
      instructions: ({ deps }) => {
        if (deps.fail) throw new Error('instructions broke')
        return 'Be nice.'
      },
      deps: { fail: true },
    })

    const results: AgentResult[] = await agent.batch(['one'])

    expect(results[0]).toMatchObject({ stopReason: 'error', error: 'instructions broke', output: '' })
  })

  test('passes run options to every input', async () => {
    const provider = new ScriptedProvider(['one', 'two'])
    const agent = new Agent({ model: provider })

    const results = await agent.batch(['a', 'b'], { signal: AbortSignal.abort() })

    expect(results.map((result) => result.stopReason)).toEqual(['aborted', 'aborted'])
    expect(provider.calls).toHaveLength(0)
  })
})

describe('events', () => {
  test('the result event carries the same run id as the observers saw', async () => {
    const runIds: string[] = []
    const agent = new Agent({
      model: new ScriptedProvider(['Hi.']),
      observers: [{ onRunStart: ({ runId }) => void runIds.push(runId) }],
    })

    const events: AgentEvent[] = []
    for await (const event of agent.stream('Hi')) events.push(event)

    const last = events.at(-1)
    expect(last?.type === 'result' ? last.result.runId : undefined).toBe(runIds[0])
  })
})
