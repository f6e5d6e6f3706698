import { trace } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, InMemorySessionStore, tool } from '../../src/index.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { ScriptedProvider, startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  trace.disable()
})

const refund = tool({
  name: 'refund_order',
  description: 'Refunds an order',
  parameters: z.object({ order: z.string() }),
  execute: ({ order }) => `refunded ${order}`,
})

describe('handoffs over the real openai SDK', () => {
  test('the receiving agent continues the conversation; the messages say who answered', async () => {
    server = await startMockLlmServer({
      script: [
        { text: 'Let me find the right person.', toolCalls: [{ name: 'transfer_to_billing', args: {} }] },
        {
          toolCalls: [{ name: 'refund_order', args: { order: 'o-7' } }],
          usage: { inputTokens: 30, outputTokens: 5 },
        },
        { text: 'Order o-7 is refunded.', usage: { inputTokens: 40, outputTokens: 6 } },
      ],
    })
    const model = () =>
      new OpenAiProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: server!.openaiBaseURL })
    const billing = new Agent({
      name: 'billing',
      description: 'Refunds and invoices',
      instructions: 'You handle billing.',
      model: model(),
      tools: [refund],
    })
    const handoffs: string[] = []
    const triage = new Agent({
      name: 'triage',
      instructions: 'You route questions.',
      model: model(),
      handoffs: [billing],
      observers: [{ onHandoff: ({ from, to }) => void handoffs.push(`${from}→${to}`) }],
    })
    const result = await triage.run('Refund order o-7')

    expect(result).toMatchObject({
      stopReason: 'final',
      output: 'Order o-7 is refunded.',
      lastAgent: 'billing',
    })
    expect(result.messages.filter((m) => m.role === 'assistant').map((m) => m.agent)).toEqual([
      'triage',
      'billing',
      'billing',
    ])
    expect(handoffs).toEqual(['triage→billing'])
    expect(result.trace.filter((step) => step.type === 'handoff')).toMatchObject([
      { from: 'triage', to: 'billing' },
    ])
    const first = server.journal[0]?.body as {
      messages: { content: string }[]
      tools: { function: { name: string; description: string } }[]
    }
    expect(first.messages[0]?.content).toBe('You route questions.')
    expect(first.tools.map((t) => t.function.name)).toEqual(['transfer_to_billing'])
    expect(first.tools[0]?.function.description).toBe(
      'Hand the conversation to the agent `billing`: Refunds and invoices',
    )
    const second = server.journal[1]?.body as {
      messages: { role: string; content: string }[]
      tools: { function: { name: string } }[]
    }
    expect(second.messages[0]?.content).toBe('You handle billing.')
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
    expect(second.tools.map((t) => t.function.name)).toEqual(['refund_order'])
    expect(result.usageByAgent?.billing?.usage).toMatchObject({ inputTokens: 70, outputTokens: 11 })
    expect(result.usageByAgent?.triage?.requests).toBe(1)
    expect(result.usage.inputTokens).toBe(
      (result.usageByAgent?.triage?.usage.inputTokens ?? 0) +
        (result.usageByAgent?.billing?.usage.inputTokens ?? 0),
    )
  })
})

describe('agents as tools', () => {
  test('a sub-agent’s usage rolls into the caller’s, per agent, and its trace nests in one', async () => {
    const researcher = new Agent({
      name: 'researcher',
      description: 'Finds facts',
      model: new ScriptedProvider([
        { text: 'Paris is the capital.', usage: { inputTokens: 7, outputTokens: 3 } },
      ]),
    })
    const writer = new Agent({
      name: 'writer',
      model: new ScriptedProvider([
        {
          toolCalls: [{ name: 'researcher', args: { input: 'capital of France?' } }],
          usage: { inputTokens: 10, outputTokens: 2 },
        },
        { text: 'The capital of France is Paris.', usage: { inputTokens: 20, outputTokens: 4 } },
      ]),
      tools: [researcher.asTool()],
    })
    const result = await writer.run('Write one line about France')

    expect(result.output).toBe('The capital of France is Paris.')
    expect(result.toolCalls[0]?.result).toBe('Paris is the capital.')
    expect(result.usage).toMatchObject({ inputTokens: 37, outputTokens: 9 })
    expect(result.requests).toBe(3)
    expect(result.usageByAgent).toEqual({
      writer: {
        usage: expect.objectContaining({ inputTokens: 30, outputTokens: 6 }) as unknown,
        costUsd: null,
        requests: 2,
      },
      researcher: {
        usage: expect.objectContaining({ inputTokens: 7, outputTokens: 3 }) as unknown,
        costUsd: null,
        requests: 1,
      },
    })
    const nested = result.trace.find((step) => step.type === 'agent_run')
    expect(nested).toMatchObject({ agent: 'researcher', stopReason: 'final' })
    expect(nested?.type === 'agent_run' && nested.steps.map((step) => step.type)).toEqual(['llm_call'])
  })

  test('a sub-agent that stops without an answer is a tool error the caller sees', async () => {
    const stuck = new Agent({
      name: 'stuck',
      model: new ScriptedProvider([{ error: new Error('model down') }]),
      retry: { maxRetries: 0 },
    })
    const boss = new Agent({
      model: new ScriptedProvider([
        { toolCalls: [{ name: 'stuck', args: { input: 'help' } }] },
        'I could not get help.',
      ]),
      tools: [stuck.asTool()],
    })
    const result = await boss.run('Go')

    expect(result.toolCalls[0]?.error).toContain('Agent `stuck` stopped with `error`')
  })

  test('one trace: sub-agent and handoff spans are children of the caller’s spans', async () => {
    const exporter = new InMemorySpanExporter()
    trace.setGlobalTracerProvider(
      new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
    )
    const researcher = new Agent({ name: 'researcher', model: new ScriptedProvider(['Fact.']) })
    const closer = new Agent({ name: 'closer', model: new ScriptedProvider(['Bye.']) })
    const lead = new Agent({
      name: 'lead',
      model: new ScriptedProvider([
        { toolCalls: [{ name: 'researcher', args: { input: 'a fact' } }] },
        { toolCalls: [{ name: 'transfer_to_closer', args: {} }] },
      ]),
      tools: [researcher.asTool()],
      handoffs: [closer],
    })
    await lead.run('Go')

    const spans = exporter.getFinishedSpans()
    const byName = (name: string) => spans.find((span) => span.name === name)!
    const root = byName('invoke_agent lead')
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1)
    const toolSpan = byName('execute_tool researcher')
    expect(byName('invoke_agent researcher').parentSpanContext?.spanId).toBe(toolSpan.spanContext().spanId)
    expect(toolSpan.parentSpanContext?.spanId).toBe(root.spanContext().spanId)
    const handed = byName('invoke_agent closer')
    expect(handed.parentSpanContext?.spanId).toBe(root.spanContext().spanId)
    const lastChat = spans.filter((span) => span.name === 'chat scripted').at(-1)!
    expect(lastChat.parentSpanContext?.spanId).toBe(handed.spanContext().spanId)
  })

  test('a handoff is kept in the session: the next run starts with the agent it is given, the history intact', async () => {
    const store = new InMemorySessionStore()
    const billing = new Agent({ name: 'billing', model: new ScriptedProvider(['Refunded.']) })
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedProvider([{ toolCalls: [{ name: 'transfer_to_billing', args: {} }] }]),
      handoffs: [billing],
      sessions: store,
    })
    await triage.run('Refund me', { sessionId: 's' })

    const saved = await store.load('s')
    expect(saved?.agent).toBe('billing')
    expect(saved?.messages.filter((m) => m.role === 'assistant').map((m) => m.agent)).toEqual([
      'triage',
      'billing',
    ])
  })

  test('rejects a handoff that is not an Agent', () => {
    expect(
      () => new Agent({ model: 'local', handoffs: [{ name: 'x', description: undefined, '~agent': true }] }),
    ).toThrow('Agent `agent`: `handoffs[0]` must be an Agent or { agent: Agent, toolName?, description? }.')
  })
})
