import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool, type AgentEvent, type ToolContext } from '../../src/index.ts'
import { ScriptedProvider, type ScriptedReply } from '../../src/testing/index.ts'

function deferred<Value = void>() {
  let resolve!: (value: Value) => void
  const promise = new Promise<Value>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

/** resolves once `count` callers are waiting, so it only settles when the callers run at the same time */
function barrier(count: number) {
  let waiting = 0
  const released = deferred()
  return async () => {
    waiting++
    if (waiting === count) released.resolve()
    await released.promise
  }
}

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `22C in ${city}`,
})

const call = (name: string, args: unknown = {}, id?: string) => ({
  toolCalls: [{ name, args, ...(id === undefined ? {} : { id }) }],
})

function failing(name: string, maxRetries?: number) {
  let calls = 0
  return tool({
    name,
    description: 'Fails on odd calls when asked to',
    parameters: z.object({ fail: z.boolean() }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    execute: ({ fail }) => {
      calls++
      if (fail) throw new Error(`boom ${calls}`)
      return 'fine'
    },
  })
}

describe('errors go back to the model', () => {
  test('an unknown tool name becomes an error result with a did-you-mean, and the model corrects itself', async () => {
    const provider = new ScriptedProvider([
      call('get_wether', { city: 'Paris' }, 'c1'),
      call('get_weather', { city: 'Paris' }, 'c2'),
      'It is 22C.',
    ])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const result = await agent.run('Weather?')

    expect(provider.calls[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      name: 'get_wether',
      content: 'Unknown tool `get_wether`. Did you mean `get_weather`? Available tools: `get_weather`.',
      isError: true,
    })
    expect(result.toolCalls.map((record) => record.error ?? record.result)).toEqual([
      'Unknown tool `get_wether`. Did you mean `get_weather`? Available tools: `get_weather`.',
      '22C in Paris',
    ])
    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('It is 22C.')
  })

  test('malformed JSON arguments become an error result instead of a crash', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get_weather', arguments: '{"city": ', id: 'c1' }] },
      call('get_weather', { city: 'Paris' }),
      'It is 22C.',
    ])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const result = await agent.run('Weather?')

    const parseError = (() => {
      try {
        JSON.parse('{"city": ')
        return ''
      } catch (error) {
        return (error as Error).message
      }
    })()
    expect(result.toolCalls[0]).toMatchObject({
      args: '{"city": ',
      error: `Invalid arguments for tool \`get_weather\`: not valid JSON (${parseError}). Send the arguments as one JSON object.`,
    })
    expect(provider.calls[1]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true })
    expect(result.stopReason).toBe('final')
  })

  test('invalid arguments become an error result listing every issue', async () => {
    const provider = new ScriptedProvider([call('get_weather', { town: 'Paris' }), 'Sorry.'])
    const agent = new Agent({ model: provider, tools: [getWeather] })

    const result = await agent.run('Weather?')

    expect(result.toolCalls[0]?.error).toBe(
      [
        'Invalid arguments for tool `get_weather`:',
        '- city: expected string, received undefined',
        '- unknown key `town` (known keys: city)',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('an error thrown by a tool becomes an error result', async () => {
    const provider = new ScriptedProvider([call('flaky', { fail: true }), 'It broke.'])
    const agent = new Agent({ model: provider, tools: [failing('flaky')] })

    const result = await agent.run('Go')

    expect(result.toolCalls[0]?.error).toBe('Tool `flaky` failed: boom 1')
    expect(result.messages.at(-2)).toMatchObject({
      role: 'tool',
      content: 'Tool `flaky` failed: boom 1',
      isError: true,
    })
    expect(result.trace.find((step) => step.type === 'tool_result')).toMatchObject({
      ok: false,
      error: 'Tool `flaky` failed: boom 1',
    })
    expect(result.stopReason).toBe('final')
  })

  test('a non-Error thrown by a tool still becomes a readable error result', async () => {
    const throwsString = tool({
      name: 'odd',
      description: 'Throws a string',
      parameters: z.object({}),
      execute: () => {
        throw 'not an error'
      },
    })
    const provider = new ScriptedProvider([call('odd'), 'Done.'])
    const agent = new Agent({ model: provider, tools: [throwsString] })

    const result = await agent.run('Go')

    expect(result.toolCalls[0]?.error).toBe('Tool `odd` failed: not an error')
  })
})

describe('retry budgets', () => {
  test('stops with `tool_failures` once a tool fails more times in a row than its retry budget', async () => {
    const provider = new ScriptedProvider([call('flaky', { fail: true }), call('flaky', { fail: true })])
    const agent = new Agent({ model: provider, tools: [failing('flaky', 1)] })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('tool_failures')
    expect(result.error).toBe(
      'Tool `flaky` failed 2 times in a row (retry budget 1); last error: Tool `flaky` failed: boom 2',
    )
    provider.assertDone()
  })

  test('uses the agent toolRetries when the tool sets no budget', async () => {
    const provider = new ScriptedProvider([call('flaky', { fail: true }), call('flaky', { fail: true })])
    const agent = new Agent({ model: provider, tools: [failing('flaky')], toolRetries: 1 })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('tool_failures')
    expect(result.error).toContain('(retry budget 1)')
  })

  test('resets a tool budget after a success', async () => {
    const provider = new ScriptedProvider([
      call('flaky', { fail: true }),
      call('flaky', { fail: false }),
      call('flaky', { fail: true }),
      call('flaky', { fail: false }),
      'Done.',
    ])
    const agent = new Agent({ model: provider, tools: [failing('flaky', 1)] })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('final')
    expect(result.toolCalls.map((record) => record.error === undefined)).toEqual([false, true, false, true])
  })

  test('counts one failure per reply, so a fan-out with several failed calls does not end the run', async () => {
    const fetchUrl = tool({
      name: 'fetch_url',
      description: 'Fetches a URL',
      parameters: z.object({ url: z.string() }),
      readOnly: true,
      execute: ({ url }) => {
        if (url !== 'ok') throw new Error('404')
        return 'page'
      },
    })
    const urls = ['a', 'b', 'c', 'd', 'ok']
    const provider = new ScriptedProvider([
      { toolCalls: urls.map((url) => ({ name: 'fetch_url', args: { url } })) },
      'Four of the five pages are missing.',
    ])
    const agent = new Agent({ model: provider, tools: [fetchUrl] })

    const result = await agent.run('Fetch them')

    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('Four of the five pages are missing.')
  })

  test('counts a reply whose calls of a tool all failed as one failure in a row', async () => {
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'flaky', args: { fail: true } },
          { name: 'flaky', args: { fail: true } },
        ],
      },
      {
        toolCalls: [
          { name: 'flaky', args: { fail: true } },
          { name: 'flaky', args: { fail: true } },
        ],
      },
    ])
    const agent = new Agent({ model: provider, tools: [failing('flaky', 1)] })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('tool_failures')
    expect(result.error).toBe(
      'Tool `flaky` failed 2 times in a row (retry budget 1); last error: Tool `flaky` failed: boom 4',
    )
    provider.assertDone()
  })

  test('stops with `tool_failures` once failures over the whole run pass maxToolErrors', async () => {
    const provider = new ScriptedProvider([
      call('flaky', { fail: true }),
      call('flaky', { fail: false }),
      call('flaky', { fail: true }),
      call('nope'),
    ])
    const agent = new Agent({ model: provider, tools: [failing('flaky', 5)], maxToolErrors: 2 })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('tool_failures')
    expect(result.error).toBe('3 tool calls failed in this run (maxToolErrors 2).')
    provider.assertDone()
  })
})

describe('kinds of tools', () => {
  test('runs a sync tool and an async tool', async () => {
    const asyncTool = tool({
      name: 'lookup',
      description: 'Async lookup',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        await Promise.resolve()
        return { id, found: true }
      },
    })
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'get_weather', args: { city: 'Oslo' } },
          { name: 'lookup', args: { id: 'x1' } },
        ],
      },
      'Done.',
    ])
    const agent = new Agent({ model: provider, tools: [getWeather, asyncTool] })

    const result = await agent.run('Go')

    expect(result.toolCalls.map((record) => record.result)).toEqual([
      '22C in Oslo',
      { id: 'x1', found: true },
    ])
    expect(result.messages.at(-2)).toMatchObject({ role: 'tool', content: '{"id":"x1","found":true}' })
  })

  test('sends an undefined result to the model as null', async () => {
    const silent = tool({
      name: 'noop',
      description: 'Returns nothing',
      parameters: z.object({}),
      execute: () => undefined,
    })
    const provider = new ScriptedProvider([call('noop'), 'Done.'])
    const agent = new Agent({ model: provider, tools: [silent] })

    const result = await agent.run('Go')

    expect(result.messages.at(-2)).toMatchObject({ role: 'tool', content: 'null' })
  })

  test('streams the chunks of an async-generator tool to observers and to stream(), and returns its result', async () => {
    const progress = tool({
      name: 'download',
      description: 'Downloads with progress',
      parameters: z.object({}),
      async *execute() {
        yield { percent: 50 }
        yield { percent: 100 }
        return 'downloaded'
      },
    })
    const chunks: unknown[] = []
    const provider = new ScriptedProvider([call('download', {}, 'c1'), 'Done.'])
    const agent = new Agent({
      model: provider,
      tools: [progress],
      observers: [{ onToolChunk: ({ callId, chunk }) => void chunks.push({ callId, chunk }) }],
    })

    const events: AgentEvent[] = []
    for await (const event of agent.stream('Go')) events.push(event)

    expect(chunks).toEqual([
      { callId: 'c1', chunk: { percent: 50 } },
      { callId: 'c1', chunk: { percent: 100 } },
    ])
    expect(events.filter((event) => event.type === 'tool-chunk')).toEqual([
      { type: 'tool-chunk', callId: 'c1', name: 'download', chunk: { percent: 50 } },
      { type: 'tool-chunk', callId: 'c1', name: 'download', chunk: { percent: 100 } },
    ])
    const last = events.at(-1)
    expect(last?.type === 'result' && last.result.toolCalls[0]?.result).toBe('downloaded')
  })

  test('lets a tool emit progress chunks through ctx.emit', async () => {
    const chunks: unknown[] = []
    const emitting = tool({
      name: 'work',
      description: 'Reports progress',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.emit('halfway')
        return 'done'
      },
    })
    const provider = new ScriptedProvider([call('work'), 'Done.'])
    const agent = new Agent({
      model: provider,
      tools: [emitting],
      observers: [{ onToolChunk: ({ chunk }) => void chunks.push(chunk) }],
    })

    await agent.run('Go')

    expect(chunks).toEqual(['halfway'])
  })
})

describe('the tool context', () => {
  test('gives tools the deps, an abort signal, the run id and the call id', async () => {
    const seen: ToolContext<{ db: string }>[] = []
    const inspect = tool({
      name: 'inspect',
      description: 'Looks at its context',
      parameters: z.object({}),
      execute: (_args, ctx: ToolContext<{ db: string }>) => {
        seen.push(ctx)
        return 'ok'
      },
    })
    const provider = new ScriptedProvider([call('inspect', {}, 'c7'), 'Done.'])
    const agent = new Agent({ model: provider, tools: [inspect], deps: { db: 'secret-connection' } })

    const result = await agent.run('Go')

    expect(seen[0]?.deps).toEqual({ db: 'secret-connection' })
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal)
    expect(seen[0]?.runId).toBe(result.runId)
    expect(seen[0]?.callId).toBe('c7')
    expect(JSON.stringify(provider.calls)).not.toContain('secret-connection')
  })

  test('uses the deps given to run over the agent deps', async () => {
    const seen: unknown[] = []
    const inspect = tool({
      name: 'inspect',
      description: 'Looks at its deps',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        seen.push(ctx.deps)
        return 'ok'
      },
    })
    const provider = new ScriptedProvider([call('inspect'), 'Done.'])
    const agent = new Agent({ model: provider, tools: [inspect], deps: { user: 'agent' } })

    await agent.run('Go', { deps: { user: 'run' } })

    expect(seen).toEqual([{ user: 'run' }])
  })
})

describe('parallel tools', () => {
  const twoCalls: ScriptedReply = {
    toolCalls: [
      { name: 'first', args: {}, id: 'a' },
      { name: 'second', args: {}, id: 'b' },
    ],
  }

  test('runs the calls of one reply at the same time', async () => {
    const together = barrier(2)
    const make = (name: string) =>
      tool({
        name,
        description: name,
        parameters: z.object({}),
        timeoutMs: 1000,
        readOnly: true,
        execute: async () => {
          await together()
          return name
        },
      })
    const provider = new ScriptedProvider([twoCalls, 'Done.'])
    const agent = new Agent({ model: provider, tools: [make('first'), make('second')] })

    const result = await agent.run('Go')

    expect(result.toolCalls.map((record) => record.result)).toEqual(['first', 'second'])
  })

  test('appends results in call order even when the later call finishes first', async () => {
    const secondDone = deferred()
    const first = tool({
      name: 'first',
      description: 'slow',
      readOnly: true,
      parameters: z.object({}),
      execute: async () => {
        await secondDone.promise
        return 'first result'
      },
    })
    const second = tool({
      name: 'second',
      description: 'fast',
      readOnly: true,
      parameters: z.object({}),
      execute: () => {
        secondDone.resolve()
        return 'second result'
      },
    })
    const provider = new ScriptedProvider([twoCalls, 'Done.'])
    const agent = new Agent({ model: provider, tools: [first, second] })

    const result = await agent.run('Go')

    expect(
      result.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId),
    ).toEqual(['a', 'b'])
    expect(result.toolCalls.map((record) => record.id)).toEqual(['a', 'b'])
    const finished = result.trace.filter((step) => step.type === 'tool_result').map((step) => step.callId)
    expect(finished).toEqual(['b', 'a'])
  })

  test('does not cancel the other calls when one fails', async () => {
    const firstFailed = deferred()
    const first = tool({
      name: 'first',
      description: 'fails',
      readOnly: true,
      parameters: z.object({}),
      execute: () => {
        firstFailed.resolve()
        throw new Error('broken')
      },
    })
    const second = tool({
      name: 'second',
      description: 'waits',
      readOnly: true,
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        await firstFailed.promise
        return ctx.signal.aborted ? 'aborted' : 'finished'
      },
    })
    const provider = new ScriptedProvider([twoCalls, 'Done.'])
    const agent = new Agent({ model: provider, tools: [first, second] })

    const result = await agent.run('Go')

    expect(result.toolCalls.map((record) => record.error ?? record.result)).toEqual([
      'Tool `first` failed: broken',
      'finished',
    ])
  })

  test('runs no more calls at once than toolConcurrency', async () => {
    let running = 0
    let most = 0
    const work = tool({
      name: 'work',
      description: 'work',
      readOnly: true,
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setImmediate(resolve))
        running--
        return n
      },
    })
    const provider = new ScriptedProvider([
      { toolCalls: [1, 2, 3, 4, 5].map((n) => ({ name: 'work', args: { n } })) },
      'Done.',
    ])
    const agent = new Agent({ model: provider, tools: [work], toolConcurrency: 2 })

    const result = await agent.run('Go')

    expect(most).toBe(2)
    expect(result.toolCalls.map((record) => record.result)).toEqual([1, 2, 3, 4, 5])
  })

  test('runs the calls one after another with parallelTools false', async () => {
    const events: string[] = []
    const make = (name: string) =>
      tool({
        name,
        description: name,
        parameters: z.object({}),
        execute: async () => {
          events.push(`start ${name}`)
          await new Promise((resolve) => setImmediate(resolve))
          events.push(`end ${name}`)
          return name
        },
      })
    const provider = new ScriptedProvider([twoCalls, 'Done.'])
    const agent = new Agent({ model: provider, tools: [make('first'), make('second')], parallelTools: false })

    await agent.run('Go')

    expect(events).toEqual(['start first', 'end first', 'start second', 'end second'])
  })
})

describe('read-only batching', () => {
  const logged = (events: string[], name: string, readOnly: boolean) =>
    tool({
      name,
      description: name,
      parameters: z.object({}),
      readOnly,
      execute: async () => {
        events.push(`start ${name}`)
        await new Promise((resolve) => setImmediate(resolve))
        events.push(`end ${name}`)
        return name
      },
    })

  test('runs each writing call after the calls before it, and the read-only calls between writes together', async () => {
    const events: string[] = []
    const provider = new ScriptedProvider([
      {
        toolCalls: ['write_a', 'read_a', 'read_b', 'write_b'].map((name) => ({ name, id: name })),
      },
      'Done.',
    ])
    const agent = new Agent({
      model: provider,
      tools: [
        logged(events, 'read_a', true),
        logged(events, 'read_b', true),
        logged(events, 'write_a', false),
        logged(events, 'write_b', false),
      ],
    })

    const result = await agent.run('Go')

    expect(events).toEqual([
      'start write_a',
      'end write_a',
      'start read_a',
      'start read_b',
      'end read_a',
      'end read_b',
      'start write_b',
      'end write_b',
    ])
    expect(result.toolCalls.map((record) => record.id)).toEqual(['write_a', 'read_a', 'read_b', 'write_b'])
    expect(
      result.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId),
    ).toEqual(['write_a', 'read_a', 'read_b', 'write_b'])
  })

  test('runs calls of tools not marked readOnly one by one', async () => {
    const events: string[] = []
    const provider = new ScriptedProvider([twoWrites, 'Done.'])
    const agent = new Agent({
      model: provider,
      tools: [logged(events, 'first', false), logged(events, 'second', false)],
    })

    await agent.run('Go')

    expect(events).toEqual(['start first', 'end first', 'start second', 'end second'])
  })
})

const twoWrites: ScriptedReply = {
  toolCalls: [
    { name: 'first', args: {}, id: 'a' },
    { name: 'second', args: {}, id: 'b' },
  ],
}

describe('timeouts', () => {
  const hanging = (options: { timeoutMs?: number } = {}) => {
    const signals: AbortSignal[] = []
    const hang = tool({
      name: 'hang',
      description: 'Never finishes',
      parameters: z.object({}),
      ...options,
      execute: (_args, ctx) => {
        signals.push(ctx.signal)
        return new Promise<never>(() => undefined)
      },
    })
    return { hang, signals }
  }

  test('turns a tool that outlives its timeout into an error result and aborts its signal', async () => {
    const { hang, signals } = hanging({ timeoutMs: 20 })
    const provider = new ScriptedProvider([call('hang'), 'Gave up.'])
    const agent = new Agent({ model: provider, tools: [hang] })

    const result = await agent.run('Go')

    expect(result.toolCalls[0]?.error).toBe('Tool `hang` timed out after 20 ms.')
    expect(signals[0]?.aborted).toBe(true)
    expect(result.stopReason).toBe('final')
  })

  test('stops an async-generator tool that timed out, so it sends no more chunks', async () => {
    const chunks: unknown[] = []
    let resumed = false
    const laterChunk = deferred()
    const slow = tool({
      name: 'slow',
      description: 'Streams slowly',
      parameters: z.object({}),
      timeoutMs: 10,
      async *execute() {
        yield 'first'
        await new Promise((resolve) => setTimeout(resolve, 30))
        try {
          yield 'second'
          resumed = true
        } finally {
          laterChunk.resolve()
        }
      },
    })
    const provider = new ScriptedProvider([call('slow'), 'Gave up.'])
    const agent = new Agent({
      model: provider,
      tools: [slow],
      observers: [{ onToolChunk: ({ chunk }) => void chunks.push(chunk) }],
    })

    const result = await agent.run('Go')
    await laterChunk.promise

    expect(result.toolCalls[0]?.error).toBe('Tool `slow` timed out after 10 ms.')
    expect(chunks).toEqual(['first'])
    expect(resumed).toBe(false)
  })

  test('applies the agent toolTimeoutMs to tools without their own', async () => {
    const { hang } = hanging()
    const provider = new ScriptedProvider([call('hang'), 'Gave up.'])
    const agent = new Agent({ model: provider, tools: [hang], toolTimeoutMs: 15 })

    const result = await agent.run('Go')

    expect(result.toolCalls[0]?.error).toBe('Tool `hang` timed out after 15 ms.')
  })

  test('prefers the tool timeout over the agent default', async () => {
    const { hang } = hanging({ timeoutMs: 10 })
    const provider = new ScriptedProvider([call('hang'), 'Gave up.'])
    const agent = new Agent({ model: provider, tools: [hang], toolTimeoutMs: 60_000 })

    const result = await agent.run('Go')

    expect(result.toolCalls[0]?.error).toBe('Tool `hang` timed out after 10 ms.')
  })
})

describe('ending the run from a tool', () => {
  test('a terminal tool ends the run with its result as the output', async () => {
    const answer = tool({
      name: 'final_answer',
      description: 'Gives the answer',
      parameters: z.object({ answer: z.string(), confidence: z.number() }),
      terminal: true,
      execute: (args) => args,
    })
    const provider = new ScriptedProvider([call('final_answer', { answer: '42', confidence: 0.9 })])
    const agent = new Agent({ model: provider, tools: [answer] })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('terminal_tool')
    expect(result.output).toBe('{"answer":"42","confidence":0.9}')
    expect(result.iterations).toBe(1)
    provider.assertDone()
  })

  test('a terminal tool that fails does not end the run', async () => {
    const answer = tool({
      name: 'submit',
      description: 'Submits',
      parameters: z.object({}),
      terminal: true,
      execute: () => {
        throw new Error('rejected')
      },
    })
    const provider = new ScriptedProvider([call('submit'), 'Could not submit.'])
    const agent = new Agent({ model: provider, tools: [answer] })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('Could not submit.')
  })

  test('stopWhen ends the run with the tool result when it returns true', async () => {
    const seen: unknown[] = []
    const provider = new ScriptedProvider([
      call('get_weather', { city: 'Oslo' }),
      call('get_weather', { city: 'Paris' }),
    ])
    const agent = new Agent({
      model: provider,
      tools: [getWeather],
      stopWhen: (record, result) => {
        seen.push([record.name, result])
        return record.args !== null && (record.args as { city: string }).city === 'Paris'
      },
    })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('terminal_tool')
    expect(result.output).toBe('22C in Paris')
    expect(seen).toEqual([
      ['get_weather', '22C in Oslo'],
      ['get_weather', '22C in Paris'],
    ])
    provider.assertDone()
  })
})
