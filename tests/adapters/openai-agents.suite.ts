import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { agentTarget } from '../../src/targets/agent.ts'
import { functionTarget } from '../../src/targets/function.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { context, gpt41MiniCost, runOneCase } from './helpers.ts'

/**
 * The OpenAI Agents SDK adapter against a real `@openai/agents` (0.14 here, the newest under Node 24 in
 * tests/frameworks-node22): the triage agent in `fixture` talks to the mock LLM server's Responses API.
 */
export function describeOpenAIAgentsAdapter(version: string, fixture: string): void {
  let server: MockLlmServer
  beforeAll(async () => {
    server = await startMockLlmServer()
    process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  })
  afterAll(() => server.close())
  beforeEach(() => {
    expect(server.remaining).toBe(0)
  })

  describe(`an OpenAI Agents SDK ${version} agent as \`agent:\``, () => {
    test('keeps the handoff, the agent that answered, tool calls with results and errors, usage with cached tokens and the cost', async () => {
      server.enqueue(
        {
          toolCalls: [{ name: 'transfer_to_refunds', args: {} }],
          usage: { inputTokens: 80, outputTokens: 6 },
        },
        {
          toolCalls: [
            { name: 'lookup_order', args: { id: 'A1' } },
            { name: 'lookup_order', args: { id: 'X' } },
          ],
          usage: { inputTokens: 120, outputTokens: 12, cacheReadTokens: 64 },
        },
        { text: 'Order A1 is refunded; there is no order X.', usage: { inputTokens: 200, outputTokens: 10 } },
      )
      const target = await agentTarget({ file: fixture, baseDir: '/' })
      const transcript = await target.run('Refund orders A1 and X', context())

      expect(transcript).toMatchObject({
        source: 'adapter:openai-agents',
        agent: 'refunds',
        output: 'Order A1 is refunded; there is no order X.',
        iterations: 3,
        stopReason: 'final',
        usage: { inputTokens: 400, outputTokens: 28, cacheReadTokens: 64, cacheWriteTokens: 0 },
      })
      expect(transcript.toolCalls).toMatchObject([
        { name: 'transfer_to_refunds', args: {} },
        { name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped', total: 40 } },
        // the SDK sends the model this text for a tool that threw (0.14 appends the error, later versions do not)
        {
          name: 'lookup_order',
          args: { id: 'X' },
          error: expect.stringMatching(/^An error occurred while running the tool/) as string,
        },
      ])
      const models = (transcript.trace ?? []).flatMap((step) =>
        step.type === 'llm_call' ? [step.model] : [],
      )
      expect(models).toEqual(['gpt-4.1-mini', 'gpt-4.1-mini', 'gpt-4.1-mini'])
      expect(transcript.costUsd).toBeCloseTo(gpt41MiniCost({ input: 400, cached: 64, output: 28 }), 12)
    })

    test('`answered_by` and `tools` grade the handoff through the runner', async () => {
      server.enqueue(
        { toolCalls: [{ name: 'transfer_to_refunds', args: {} }] },
        { text: 'Which order?' },
        { text: 'I answer myself.' },
      )
      const handedOff = await runOneCase(
        { type: 'agent', module: fixture },
        { input: 'I want a refund', expect: { answered_by: 'refunds', tools: ['transfer_to_refunds'] } },
      )
      const kept = await runOneCase(
        { type: 'agent', module: fixture },
        { input: 'Hello', expect: { answered_by: 'refunds' } },
      )

      expect(handedOff.result.status).toBe('passed')
      expect(kept.result.status).toBe('failed')
      if (kept.result.status !== 'failed') return
      expect(kept.result.verdicts[0]?.reason).toBe(
        'expected a reply by `refunds`; the last reply is by `triage`',
      )
    })

    test('running out of turns fails the case as `max_iterations`, with what the agent did until then', async () => {
      const again = { toolCalls: [{ name: 'transfer_to_refunds', args: {} }] }
      server.enqueue(
        again,
        ...Array.from({ length: 9 }, () => ({ toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] })),
      )
      const { result } = await runOneCase({ type: 'agent', module: fixture }, { input: 'Refund A1' })

      expect(result.status).toBe('failed')
      if (result.status !== 'failed') return
      expect(result.transcript).toMatchObject({
        stopReason: 'max_iterations',
        iterations: 10,
        agent: 'refunds',
      })
      expect(result.transcript.toolCalls).toHaveLength(10)
      expect(result.verdicts).toMatchObject([
        {
          evaluator: 'stop_reason',
          pass: false,
          reason:
            'the agent stopped without an answer (`max_iterations`): MaxTurnsExceededError: Max turns (10) exceeded',
        },
      ])
    })

    test('the second turn of a conversation gets the first turn’s tool calls and results', async () => {
      server.enqueue(
        { toolCalls: [{ name: 'transfer_to_refunds', args: {} }] },
        { toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] },
        { text: 'A1 is refunded.' },
        { text: 'Yes, A1.' },
      )
      const { result } = await runOneCase(
        { type: 'agent', module: fixture },
        {
          input: '',
          turns: [
            { user: 'Refund A1', expect: { tools: ['lookup_order'] } },
            { user: 'Which order was it?', expect: { tools: [] } },
          ],
        },
      )

      expect(result.status).toBe('passed')
      const fourth = JSON.stringify(server.journal.at(-1)?.body)
      expect(fourth).toContain('"name":"lookup_order"')
      expect(fourth).toContain('"type":"function_call_output"')
      expect(fourth).toContain('shipped')
    })
  })

  describe(`a function returning the OpenAI Agents SDK ${version} run`, () => {
    test('its result is mapped, and its `MaxTurnsExceededError` is the agent’s stop, not a crash', async () => {
      server.enqueue({ toolCalls: [{ name: 'transfer_to_refunds', args: {} }] }, { text: 'Refunded.' })
      const target = await functionTarget({ ref: `${fixture}#answer`, baseDir: '/' })
      const done = await target.run('Refund A1', context())
      server.enqueue(
        { toolCalls: [{ name: 'transfer_to_refunds', args: {} }] },
        { toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] },
      )
      const stopped = await target.run('Refund A1', context())

      expect(done).toMatchObject({ source: 'adapter:openai-agents', agent: 'refunds', output: 'Refunded.' })
      expect(stopped).toMatchObject({
        stopReason: 'max_iterations',
        stopDetail: 'MaxTurnsExceededError: Max turns (2) exceeded',
        iterations: 2,
      })
      expect(stopped.error).toBeUndefined()
    })
  })
}
