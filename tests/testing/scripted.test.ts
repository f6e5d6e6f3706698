import { describe, expect, test } from 'vitest'
import { ConfigError, type CompletionEvent, type CompletionRequest } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const request = (content: string): CompletionRequest => ({ messages: [{ role: 'user', content }], tools: [] })
const options = () => ({ signal: new AbortController().signal })

describe('ScriptedProvider', () => {
  test('plays back replies in order and records every request', async () => {
    const provider = new ScriptedProvider(['first', 'second'])

    const first = await provider.complete(request('one'), options())
    const second = await provider.complete(request('two'), options())

    expect([first.message.text, second.message.text]).toEqual(['first', 'second'])
    expect(provider.calls).toEqual([request('one'), request('two')])
    expect(provider.remaining).toBe(0)
  })

  test('turns a string reply into a final answer with estimated usage', async () => {
    const provider = new ScriptedProvider(['12345678'])

    const completion = await provider.complete(request('abcd'), options())

    expect(completion).toEqual({
      message: { text: '12345678', toolCalls: [] },
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      finishReason: 'stop',
      model: 'scripted',
    })
  })

  test('serializes tool-call args, numbering ids by call and position', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'a', args: { x: 1 } }, { name: 'b' }, { name: 'c', id: 'mine', args: {} }] },
    ])

    const completion = await provider.complete(request('go'), options())

    expect(completion.message.toolCalls).toEqual([
      { id: 'call_1_1', name: 'a', arguments: '{"x":1}' },
      { id: 'call_1_2', name: 'b', arguments: '{}' },
      { id: 'mine', name: 'c', arguments: '{}' },
    ])
    expect(completion.finishReason).toBe('tool_calls')
  })

  test('passes raw arguments text through untouched, malformed or not', async () => {
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'a', arguments: '{"x": ' }] }])

    const completion = await provider.complete(request('go'), options())

    expect(completion.message.toolCalls[0]?.arguments).toBe('{"x": ')
  })

  test('uses the given usage, model and finish reason over the defaults', async () => {
    const provider = new ScriptedProvider(
      [
        {
          text: 'hi',
          usage: { inputTokens: 100, cacheReadTokens: 40 },
          model: 'gpt-x',
          finishReason: 'length',
        },
      ],
      { model: 'default-model' },
    )

    const completion = await provider.complete(request('abcd'), options())

    expect(completion.usage).toEqual({
      inputTokens: 100,
      outputTokens: 1,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
    })
    expect(completion.model).toBe('gpt-x')
    expect(completion.finishReason).toBe('length')
  })

  test('reports its model option as the answering model', async () => {
    const provider = new ScriptedProvider(['hi'], { id: 'openai:gpt-4o', model: 'gpt-4o' })

    const completion = await provider.complete(request('go'), options())

    expect(provider.id).toBe('openai:gpt-4o')
    expect(completion.model).toBe('gpt-4o')
  })

  test('throws the error of an error reply', async () => {
    const failure = new Error('boom')
    const provider = new ScriptedProvider([{ error: failure }])

    await expect(provider.complete(request('go'), options())).rejects.toBe(failure)
  })

  test('calls a function reply with the request', async () => {
    const provider = new ScriptedProvider([(seen) => `you said ${seen.messages[0]?.content ?? ''}`])

    const completion = await provider.complete(request('hello'), options())

    expect(completion.message.text).toBe('you said hello')
  })

  test('lets a function reply return another function', async () => {
    const provider = new ScriptedProvider([() => () => ({ text: 'nested' })])

    const completion = await provider.complete(request('go'), options())

    expect(completion.message.text).toBe('nested')
  })

  test('fails loudly on a call the script did not expect', async () => {
    const provider = new ScriptedProvider(['only'])
    await provider.complete(request('one'), options())

    await expect(provider.complete(request('two'), options())).rejects.toThrow(
      new ConfigError(
        'ScriptedProvider `scripted` got call 2 but its script had only 1 replies. Add a reply for it.',
      ),
    )
    expect(provider.calls).toHaveLength(2)
  })

  test('assertDone fails on replies left over and passes once all were played', async () => {
    const provider = new ScriptedProvider(['one', 'two'], { id: 'judge' })
    await provider.complete(request('one'), options())

    expect(() => {
      provider.assertDone()
    }).toThrow(new ConfigError('ScriptedProvider `judge` has 1 unplayed replies after 1 calls.'))
    await provider.complete(request('two'), options())
    expect(() => {
      provider.assertDone()
    }).not.toThrow()
  })

  test('rejects a call whose signal is already aborted, without using a reply', async () => {
    const provider = new ScriptedProvider(['one'])

    await expect(provider.complete(request('go'), { signal: AbortSignal.abort() })).rejects.toThrow(
      'This operation was aborted',
    )
    expect(provider.remaining).toBe(1)
  })

  test('has no native structured output unless given the capability', () => {
    expect(new ScriptedProvider([]).capabilities).toEqual({})
    expect(new ScriptedProvider([], { capabilities: { structuredOutput: true } }).capabilities).toEqual({
      structuredOutput: true,
    })
  })
})

describe('ScriptedProvider streaming', () => {
  test('streams text as word deltas, then tool-call deltas, then the completion', async () => {
    const provider = new ScriptedProvider([
      { text: 'Let me look.', toolCalls: [{ name: 'find', args: { q: 'x' } }] },
    ])
    const stream = provider.stream?.(request('go'), options())
    if (!stream) throw new Error('expected stream()')

    const events: CompletionEvent[] = []
    for await (const event of stream) events.push(event)

    expect(events.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'Let ' },
      { type: 'text-delta', text: 'me ' },
      { type: 'text-delta', text: 'look.' },
      { type: 'tool-call-delta', index: 0, id: 'call_1_1', name: 'find', argumentsDelta: '{"q":"x"}' },
    ])
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      completion: { message: { text: 'Let me look.', toolCalls: [{ id: 'call_1_1', name: 'find' }] } },
    })
  })

  test('offers no stream() when streaming is off', () => {
    expect(new ScriptedProvider([], { streaming: false }).stream).toBeUndefined()
  })
})
