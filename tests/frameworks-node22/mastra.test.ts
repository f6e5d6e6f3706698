import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { agentTarget } from '../../src/targets/agent.ts'
import { functionTarget } from '../../src/targets/function.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { context, gpt41MiniCost, runOneCase } from '../adapters/helpers.ts'

const fixture = `${import.meta.dirname}/fixtures/mastra-agent.ts`
let server: MockLlmServer
beforeAll(async () => {
  server = await startMockLlmServer()
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
})
afterAll(() => server.close())
beforeEach(() => {
  expect(server.remaining).toBe(0)
})

describe('a Mastra 1 agent as `agent:`', () => {
  test('maps tool calls with results and errors, each step’s usage with cached tokens, the cost and the agent', async () => {
    server.enqueue(
      {
        toolCalls: [
          { name: 'lookup_order', args: { id: 'A1' } },
          { name: 'lookup_order', args: { id: 'X' } },
        ],
        usage: { inputTokens: 70, outputTokens: 9, cacheReadTokens: 24 },
      },
      { text: 'Order A1 has shipped; there is no order X.', usage: { inputTokens: 130, outputTokens: 12 } },
    )
    const target = await agentTarget({ file: fixture, baseDir: '/' })
    const transcript = await target.run('Where are orders A1 and X?', context())

    expect(transcript).toMatchObject({
      source: 'adapter:mastra',
      agent: 'support',
      output: 'Order A1 has shipped; there is no order X.',
      iterations: 2,
      stopReason: 'final',
      usage: { inputTokens: 200, outputTokens: 21, cacheReadTokens: 24, cacheWriteTokens: 0 },
    })
    expect(transcript.toolCalls).toMatchObject([
      { name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } },
      { name: 'lookup_order', args: { id: 'X' }, error: expect.stringContaining('no order X') as string },
    ])
    expect(transcript.costUsd).toBeCloseTo(gpt41MiniCost({ input: 200, cached: 24, output: 21 }), 12)
  })

  test('a reply cut off at the token limit fails the case as `truncated`', async () => {
    server.enqueue({ text: 'Order A1 has', finishReason: 'length' })
    const { result } = await runOneCase({ type: 'agent', module: fixture }, { input: 'Where is A1?' })

    expect(result.status).toBe('failed')
    if (result.status !== 'failed') return
    expect(result.verdicts).toMatchObject([{ evaluator: 'stop_reason', pass: false }])
    expect(result.transcript.stopReason).toBe('truncated')
  })

  test('the second turn of a conversation gets the first turn’s tool call and result', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] },
      { text: 'A1 has shipped.' },
      { text: 'Yes, shipped.' },
    )
    const { result } = await runOneCase(
      { type: 'agent', module: fixture },
      {
        input: '',
        turns: [
          { user: 'Where is A1?', expect: { tools: ['lookup_order'] } },
          { user: 'Sure?', expect: { tools: [] } },
        ],
      },
    )

    expect(result.status).toBe('passed')
    const third = server.journal.at(-1)?.body as { messages: { role: string; tool_calls?: unknown }[] }
    expect(third.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
    expect(JSON.stringify(third.messages[2]?.tool_calls)).toContain('lookup_order')
  })
})

describe('a function returning a Mastra agent’s output', () => {
  test('is mapped as it is', async () => {
    server.enqueue({ toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] }, { text: 'Shipped.' })
    const target = await functionTarget({ ref: `${fixture}#answer`, baseDir: '/' })
    const transcript = await target.run('Where is A1?', context())

    expect(transcript).toMatchObject({
      source: 'adapter:mastra',
      output: 'Shipped.',
      iterations: 2,
      toolCalls: [{ name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } }],
    })
  })
})
