import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { agentTarget } from '../../src/targets/agent.ts'
import { functionTarget } from '../../src/targets/function.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { context, gpt41MiniCost, runOneCase } from './helpers.ts'

/**
 * The AI SDK adapter against a real `ai` package (6 here, 7 under Node 24 in tests/frameworks-node22): the agent in
 * `fixture` talks to the mock LLM server through `@ai-sdk/openai` (the Responses API, its default).
 */
export function describeAiSdkAdapter(version: string, fixture: string): void {
  let server: MockLlmServer
  beforeAll(async () => {
    server = await startMockLlmServer()
    process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  })
  afterAll(() => server.close())
  beforeEach(() => {
    // each test scripts its own replies; what an earlier test left over would answer out of turn
    expect(server.remaining).toBe(0)
  })

  describe(`an AI SDK ${version} ToolLoopAgent as \`agent:\``, () => {
    test('maps tool calls with results and errors, each step’s model and usage with cached tokens, the cost and the stop', async () => {
      server.enqueue(
        {
          toolCalls: [
            { name: 'lookup_order', args: { id: 'A1' } },
            { name: 'lookup_order', args: { id: 'X' } },
          ],
          usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 40 },
        },
        { text: 'Order A1 has shipped; there is no order X.', usage: { inputTokens: 200, outputTokens: 10 } },
      )
      const target = await agentTarget({ file: fixture, baseDir: '/' })
      const transcript = await target.run('Where are orders A1 and X?', context())

      expect(transcript.source).toBe('adapter:ai-sdk')
      expect(transcript.output).toBe('Order A1 has shipped; there is no order X.')
      expect(transcript.toolCalls).toMatchObject([
        { name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } },
        { name: 'lookup_order', args: { id: 'X' }, error: expect.stringContaining('no order X') as string },
      ])
      expect(transcript.iterations).toBe(2)
      expect(transcript.usage).toEqual({
        inputTokens: 300,
        outputTokens: 30,
        cacheReadTokens: 40,
        cacheWriteTokens: 0,
      })
      const steps = (transcript.trace ?? []).filter((step) => step.type === 'llm_call')
      expect(steps.map((step) => [step.model, step.usage.cacheReadTokens, step.toolCalls])).toEqual([
        ['gpt-4.1-mini', 40, 2],
        ['gpt-4.1-mini', 0, 0],
      ])
      expect(transcript.costUsd).toBeCloseTo(gpt41MiniCost({ input: 300, cached: 40, output: 30 }), 12)
      expect(transcript.stopReason).toBe('final')
      expect(transcript.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'tool',
        'assistant',
      ])
    })

    test('a reply cut off at the token limit fails the case, with `truncated` as the evidence', async () => {
      server.enqueue({ text: 'Order A1 has', finishReason: 'length' })
      const { result } = await runOneCase(
        { type: 'agent', module: fixture },
        { input: 'Where is order A1?', expect: { contains: 'Order A1' } },
      )

      expect(result.status).toBe('failed')
      if (result.status !== 'failed') return
      expect(result.transcript.stopReason).toBe('truncated')
      expect(result.verdicts.map((verdict) => [verdict.evaluator, verdict.pass])).toEqual([
        ['contains', true],
        ['stop_reason', false],
      ])
    })

    test('a loop that hits its step limit while calling tools fails as `max_iterations`', async () => {
      const again = { toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] }
      server.enqueue(again, again, again)
      const { result } = await runOneCase(
        { type: 'agent', module: fixture },
        { input: 'Where is order A1?', expect: { tools: ['lookup_order'], iterations_lte: 3 } },
      )

      expect(result.status).toBe('failed')
      if (result.status !== 'failed') return
      expect(result.verdicts.at(-1)).toMatchObject({
        evaluator: 'stop_reason',
        pass: false,
        reason: expect.stringContaining('`max_iterations`') as string,
      })
    })

    test('the second turn of a conversation gets the first turn’s tool call and result', async () => {
      server.enqueue(
        { toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] },
        { text: 'Order A1 has shipped.' },
        { text: 'It shipped, as I said.' },
      )
      const { result } = await runOneCase(
        { type: 'agent', module: fixture },
        {
          input: '',
          turns: [
            { user: 'Where is order A1?', expect: { tools: ['lookup_order'] } },
            { user: 'Are you sure?', expect: { tools: [] } },
          ],
        },
      )

      expect(result.status).toBe('passed')
      const third = JSON.stringify(server.journal.at(-1)?.body)
      // the Responses API input of turn 2: the function call and its output from turn 1
      expect(third).toContain('"type":"function_call"')
      expect(third).toContain('"type":"function_call_output"')
      expect(third).toContain('shipped')
    })
  })

  describe(`a generateText-style function (AI SDK ${version}) as \`function:\``, () => {
    test('its result is mapped as it is, without glue', async () => {
      server.enqueue({ toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] }, { text: 'Shipped.' })
      const target = await functionTarget({ ref: `${fixture}#answer`, baseDir: '/' })
      const transcript = await target.run('Where is order A1?', context())

      expect(transcript).toMatchObject({
        source: 'adapter:ai-sdk',
        output: 'Shipped.',
        iterations: 2,
        stopReason: 'final',
        toolCalls: [{ name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } }],
      })
    })
  })
}
