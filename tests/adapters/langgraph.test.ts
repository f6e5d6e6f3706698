import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { agentTarget } from '../../src/targets/agent.ts'
import { functionTarget } from '../../src/targets/function.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { context, gpt41MiniCost, runOneCase } from './helpers.ts'

const fixture = `${import.meta.dirname}/fixtures/langgraph-agent.ts`
let server: MockLlmServer
beforeAll(async () => {
  server = await startMockLlmServer()
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
})
afterAll(() => server.close())
beforeEach(() => {
  expect(server.remaining).toBe(0)
})

describe('a LangGraph compiled graph (createReactAgent) as `agent:`', () => {
  test('maps tool calls with results and errors, each model call’s usage with cached tokens, the cost and the agent', async () => {
    server.enqueue(
      {
        toolCalls: [
          { name: 'lookup_order', args: { id: 'A1' } },
          { name: 'lookup_order', args: { id: 'X' } },
        ],
        usage: { inputTokens: 90, outputTokens: 14, cacheReadTokens: 32 },
      },
      { text: 'Order A1 has shipped; there is no order X.', usage: { inputTokens: 150, outputTokens: 11 } },
    )
    const target = await agentTarget({ file: fixture, baseDir: '/' })
    const transcript = await target.run('Where are orders A1 and X?', context())

    expect(transcript).toMatchObject({
      source: 'adapter:langgraph',
      agent: 'support',
      output: 'Order A1 has shipped; there is no order X.',
      iterations: 2,
      stopReason: 'final',
      usage: { inputTokens: 240, outputTokens: 25, cacheReadTokens: 32, cacheWriteTokens: 0 },
    })
    expect(transcript.toolCalls).toMatchObject([
      { name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } },
      { name: 'lookup_order', args: { id: 'X' }, error: expect.stringContaining('no order X') as string },
    ])
    expect(transcript.costUsd).toBeCloseTo(gpt41MiniCost({ input: 240, cached: 32, output: 25 }), 12)
    expect(transcript.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ])
  })

  test('running out of graph steps (`recursionLimit`) fails the case as `max_iterations`, with the steps it made', async () => {
    const again = { toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] }
    server.enqueue(again, again)
    const { result } = await runOneCase({ type: 'agent', module: fixture }, { input: 'Where is A1?' })

    expect(result.status).toBe('failed')
    if (result.status !== 'failed') return
    expect(result.transcript).toMatchObject({ stopReason: 'max_iterations', iterations: 2 })
    expect(result.transcript.toolCalls).toHaveLength(2)
    expect(result.verdicts[0]?.reason).toMatch(
      /^the agent stopped without an answer \(`max_iterations`\): Recursion limit of 4 reached/,
    )
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
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
    expect(JSON.stringify(third.messages[1]?.tool_calls)).toContain('lookup_order')
  })
})

describe('a function returning a LangGraph state', () => {
  test('is mapped from the messages after the last human message', async () => {
    server.enqueue({ toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] }, { text: 'Shipped.' })
    const target = await functionTarget({ ref: `${fixture}#answer`, baseDir: '/' })
    const transcript = await target.run('Where is A1?', context())

    expect(transcript).toMatchObject({
      source: 'adapter:langgraph',
      output: 'Shipped.',
      iterations: 2,
      toolCalls: [{ name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } }],
    })
  })
})
