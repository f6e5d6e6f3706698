import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool, type AgentResult, type Observer } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

/** A tool with a side effect, a counter of model calls and an observer of the run's end. */
function sideEffectingRun() {
  const sent: string[] = []
  const send = tool({
    name: 'send_email',
    description: 'Sends an email',
    parameters: z.object({ to: z.string() }),
    execute: ({ to }) => {
      sent.push(to)
      return `sent to ${to}`
    },
  })
  const provider = new ScriptedProvider([
    { text: 'Sending the first one.', toolCalls: [{ name: 'send_email', args: { to: 'a@x.io' }, id: 'c1' }] },
    { text: 'And the second.', toolCalls: [{ name: 'send_email', args: { to: 'b@x.io' }, id: 'c2' }] },
    { toolCalls: [{ name: 'send_email', args: { to: 'c@x.io' }, id: 'c3' }] },
    'All sent.',
  ])
  const toolStarts: string[] = []
  const ended: AgentResult<unknown>[] = []
  const observer: Observer = {
    onToolStart: ({ callId }) => void toolStarts.push(callId),
    onRunEnd: ({ result }) => void ended.push(result),
  }
  const agent = new Agent({ model: provider, tools: [send], observers: [observer] })
  return { agent, provider, sent, toolStarts, ended }
}

describe('leaving agent.stream() aborts the run', () => {
  test('break at the first text delta: no tool starts, no further model call', async () => {
    const { agent, provider, sent, toolStarts, ended } = sideEffectingRun()

    for await (const event of agent.stream('Send the emails')) {
      if (event.type === 'text-delta') break
    }

    expect(sent).toEqual([])
    expect(toolStarts).toEqual([])
    expect(provider.calls).toHaveLength(1)
    // the loop exits once the run has ended, so nothing can happen later in the background
    expect(ended.map((result) => result.stopReason)).toEqual(['aborted'])
    expect(ended[0]?.error).toBe('The run was aborted: the stream was closed before the run ended')
  })

  test('break at a tool-call event: that tool does not run', async () => {
    const { agent, provider, sent, ended } = sideEffectingRun()

    for await (const event of agent.stream('Send the emails')) {
      if (event.type === 'tool-call') break
    }

    expect(sent).toEqual([])
    expect(provider.calls).toHaveLength(1)
    expect(ended[0]?.toolCalls.map((call) => call.error)).toEqual([
      'Tool `send_email` was not run: the run was aborted.',
    ])
  })

  test('break after the first tool result: the next model call is never made', async () => {
    const { agent, provider, sent, ended } = sideEffectingRun()

    for await (const event of agent.stream('Send the emails')) {
      if (event.type === 'tool-result') break
    }

    expect(sent).toEqual(['a@x.io'])
    expect(provider.calls).toHaveLength(1)
    expect(ended.map((result) => result.stopReason)).toEqual(['aborted'])
  })

  test('a throw in the loop body aborts the run and reaches the caller', async () => {
    const { agent, provider, sent, ended } = sideEffectingRun()

    const consume = async () => {
      for await (const event of agent.stream('Send the emails')) {
        if (event.type === 'text-delta') throw new Error('reader failed')
      }
    }

    await expect(consume()).rejects.toThrow('reader failed')
    expect(sent).toEqual([])
    expect(provider.calls).toHaveLength(1)
    expect(ended.map((result) => result.stopReason)).toEqual(['aborted'])
  })

  test('return() on the iterator mid-run aborts it the same way', async () => {
    const { agent, provider, sent, ended } = sideEffectingRun()
    const stream = agent.stream('Send the emails')

    await stream.next()
    await stream.return(undefined as never)

    expect(sent).toEqual([])
    expect(provider.calls).toHaveLength(1)
    expect(ended.map((result) => result.stopReason)).toEqual(['aborted'])
  })

  test('reading to the end runs every step and is not aborted', async () => {
    const { agent, provider, sent } = sideEffectingRun()
    let result: AgentResult | undefined

    for await (const event of agent.stream('Send the emails')) {
      if (event.type === 'result') result = event.result
    }

    expect(sent).toEqual(['a@x.io', 'b@x.io', 'c@x.io'])
    expect(provider.remaining).toBe(0)
    expect(result?.stopReason).toBe('final')
  })

  test('the caller’s own signal still aborts a stream', async () => {
    const { agent, sent } = sideEffectingRun()
    const controller = new AbortController()
    let result: AgentResult | undefined

    for await (const event of agent.stream('Send the emails', { signal: controller.signal })) {
      if (event.type === 'tool-result') controller.abort()
      if (event.type === 'result') result = event.result
    }

    expect(sent).toEqual(['a@x.io'])
    expect(result?.stopReason).toBe('aborted')
    expect(controller.signal.aborted).toBe(true)
  })
})
