import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool, type AgentEvent } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const deleteFile = tool({
  name: 'delete_file',
  description: 'Deletes a file',
  parameters: z.object({ path: z.string() }),
  execute: () => 'deleted',
})

async function events(agent: Agent, input: string): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = []
  for await (const event of agent.stream(input)) seen.push(event)
  return seen
}

const toolEvents = (seen: AgentEvent[]) =>
  seen.flatMap((event) =>
    event.type === 'tool-call' || event.type === 'tool-result' ? [`${event.type} ${event.callId}`] : [],
  )

describe('every tool-result is streamed after its tool-call', () => {
  test('a call the policy denies', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'delete_file', args: { path: 'a' }, id: 'c1' }] },
      'I may not delete it.',
    ])
    const agent = new Agent({ model: provider, tools: [deleteFile], policy: { deny: ['delete_*'] } })

    const seen = await events(agent, 'Delete a')

    expect(toolEvents(seen)).toEqual(['tool-call c1', 'tool-result c1'])
    expect(seen.find((event) => event.type === 'tool-result')).toMatchObject({ ok: false })
  })

  test('a call with invalid arguments and a call of an unknown tool', async () => {
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'delete_file', args: { path: 3 }, id: 'bad' },
          { name: 'remove_file', args: { path: 'a' }, id: 'unknown' },
        ],
      },
      'Sorry.',
    ])
    const agent = new Agent({ model: provider, tools: [deleteFile] })

    const seen = await events(agent, 'Delete a')

    expect(toolEvents(seen)).toEqual([
      'tool-call bad',
      'tool-result bad',
      'tool-call unknown',
      'tool-result unknown',
    ])
  })
})

describe('many tools at once', () => {
  test('more than ten concurrent tools raise no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const slow = tool({
        name: 'slow',
        description: 'Waits a moment',
        parameters: z.object({ n: z.number() }),
        readOnly: true,
        execute: async ({ n }) => {
          await new Promise((resolve) => setTimeout(resolve, 20))
          return n
        },
      })
      const calls = Array.from({ length: 25 }, (_, n) => ({ name: 'slow', args: { n } }))
      const provider = new ScriptedProvider([{ toolCalls: calls }, 'Done.'])
      const controller = new AbortController()
      const agent = new Agent({ model: provider, tools: [slow], toolConcurrency: 25 })

      const result = await agent.run('Go', { signal: controller.signal })
      await new Promise((resolve) => setImmediate(resolve))

      expect(result.toolCalls).toHaveLength(25)
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  test('a batch of more than ten runs sharing one signal raises none either', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const slowReply = async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        return 'ok'
      }
      const provider = {
        id: 'slow',
        complete: async () => ({
          message: { text: await slowReply(), toolCalls: [] },
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          finishReason: 'stop' as const,
          model: 'slow',
        }),
      }
      const agent = new Agent({ model: provider })
      const controller = new AbortController()

      const results = await agent.batch(
        Array.from({ length: 15 }, () => 'hi'),
        {
          concurrency: 15,
          signal: controller.signal,
        },
      )
      await new Promise((resolve) => setImmediate(resolve))

      expect(results.map((result) => result.output)).toEqual(Array.from({ length: 15 }, () => 'ok'))
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })
})

describe('a large tool result', () => {
  test('is kept once in the result: in the call record and the message, not again in the trace', async () => {
    const big = 'x'.repeat(1_000_000)
    const dump = tool({
      name: 'dump',
      description: 'Dumps',
      parameters: z.object({}),
      execute: () => ({ big }),
    })
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'dump', args: {} }] }, 'Done.'])

    const result = await new Agent({ model: provider, tools: [dump] }).run('Dump')

    const json = JSON.stringify(result)
    expect(json.length).toBeLessThan(2 * big.length + 10_000)
    const step = result.trace.find((entry) => entry.type === 'tool_result')
    expect(step).toMatchObject({ ok: true, resultChars: 1_000_010 })
    expect(step && 'result' in step).toBe(false)
  })
})
