import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, InMemorySessionStore, tool, windowMessages, type Message } from '../../src/index.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { ScriptedProvider, startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const call = (id: string) => ({ id, name: 'lookup', arguments: '{}' })
const conversation: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'u1' },
  { role: 'assistant', content: 'a1' },
  { role: 'user', content: 'u2' },
  { role: 'assistant', content: '', toolCalls: [call('c1'), call('c2')] },
  { role: 'tool', toolCallId: 'c1', name: 'lookup', content: 'r1' },
  { role: 'tool', toolCallId: 'c2', name: 'lookup', content: 'r2' },
  { role: 'assistant', content: 'a2' },
]

describe('windowMessages', () => {
  test('keeps the longest tail that fits, with system messages pinned', () => {
    const window = windowMessages(conversation, { maxMessages: 6 })

    expect(window.messages.map((m) => m.content)).toEqual(['Be brief.', 'u2', '', 'r1', 'r2', 'a2'])
    expect(window.dropped.map((m) => m.content)).toEqual(['u1', 'a1'])
    expect(window.fits).toBe(true)
  })

  test('never starts at a tool result: a window of 3 keeps the call with both its results, and the turn’s user message', () => {
    for (let max = 1; max <= conversation.length; max++) {
      const { messages } = windowMessages(conversation, { maxMessages: max })
      const calls = new Set(
        messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])).map((c) => c.id),
      )
      for (const m of messages) if (m.role === 'tool') expect(calls.has(m.toolCallId)).toBe(true)
      for (const id of calls)
        expect(messages.some((m) => m.role === 'tool' && m.toolCallId === id)).toBe(true)
    }
    const tight = windowMessages(conversation, { maxMessages: 3 })
    expect(tight.messages.map((m) => m.content)).toEqual(['Be brief.', 'u2', 'a2'])
    expect(tight.fits).toBe(true)
  })

  test('counts tokens with the given counter, and says when even the shortest window does not fit', () => {
    const window = windowMessages(conversation, { maxTokens: 3, countTokens: () => 1 })
    expect(window.messages.map((m) => m.content)).toEqual(['Be brief.', 'u2', 'a2'])

    const none = windowMessages(conversation, { maxTokens: 1, countTokens: () => 1 })
    expect(none.fits).toBe(false)
    expect(none.messages.at(-1)?.content).toBe('a2')
  })
})

describe('memory in a run', () => {
  test('sends a window of the conversation, as trace steps and events say', async () => {
    const model = new ScriptedProvider(['Four.'])
    const trims: number[] = []
    const agent = new Agent({
      model,
      memory: { maxMessages: 3 },
      observers: [{ onMemoryTrim: ({ dropped }) => void trims.push(dropped) }],
    })
    const history: Message[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: '1' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: '2' },
    ]
    const result = await agent.run('three?', { history })

    expect(model.calls[0]?.messages.map((m) => m.content)).toEqual(['two', '2', 'three?'])
    expect(result.messages).toHaveLength(6)
    expect(trims).toEqual([2])
    expect(result.trace.filter((step) => step.type === 'memory_trim')).toMatchObject([
      { dropped: 2, kept: 3 },
    ])
  })

  test('summarises what it drops with the local model, and sends the summary with the system prompt', async () => {
    const model = new ScriptedProvider(['Noted.', 'Your name is Ada.'])
    const store = new InMemorySessionStore()
    const agent = new Agent({
      model,
      instructions: 'You are helpful.',
      memory: { maxMessages: 2, summarize: 'local' },
      sessions: store,
    })
    await agent.run('My name is Ada. I live in Paris.', { sessionId: 's' })
    const result = await agent.run('What is my name?', { sessionId: 's' })

    const system = model.calls[1]?.system ?? ''
    expect(system).toContain('You are helpful.\n\nSummary of the earlier conversation:\n')
    expect(system).toContain('user: My name is Ada.')
    // a window starting at `Noted.` would need its turn's question too, so the whole first turn goes
    expect(model.calls[1]?.messages.map((m) => m.content)).toEqual(['What is my name?'])
    expect(result.trace.filter((step) => step.type === 'memory_summary')).toMatchObject([
      { providerId: 'local', summarized: 2 },
    ])
    const saved = await store.load('s')
    expect(saved?.summary).toBe('user: My name is Ada. | assistant: Noted.')
    expect(saved?.messages.map((m) => m.content)).toEqual(['What is my name?', 'Your name is Ada.'])
  })

  test('summarises with a model over the real openai SDK; its tokens count in the run', async () => {
    server = await startMockLlmServer({
      handler: (request) => {
        const body = request.body as { messages: { role: string; content: string }[] }
        const last = body.messages.at(-1)?.content ?? ''
        if (last.startsWith('Summarise this earlier part'))
          return { text: 'Ada asked about refunds twice.', usage: { inputTokens: 40, outputTokens: 6 } }
        return { text: 'Answer.', usage: { inputTokens: 10, outputTokens: 2 } }
      },
    })
    const provider = () =>
      new OpenAiProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: server!.openaiBaseURL })
    const summaries: string[] = []
    const agent = new Agent({
      model: provider(),
      memory: { maxTokens: 12, countTokens: () => 4, summarize: { model: provider() } },
      observers: [{ onMemorySummarize: ({ summary }) => void summaries.push(summary) }],
    })
    const history: Message[] = [
      { role: 'user', content: 'refund?' },
      { role: 'assistant', content: 'soon' },
      { role: 'user', content: 'refund now?' },
      { role: 'assistant', content: 'tomorrow' },
    ]
    const result = await agent.run('ok', { history })

    expect(summaries).toEqual(['Ada asked about refunds twice.'])
    expect(result.usage).toMatchObject({ inputTokens: 50, outputTokens: 8 })
    expect(result.requests).toBe(2)
    expect(result.iterations).toBe(1)
    const answered = server.journal[1]?.body as { messages: { role: string; content: string }[] }
    expect(answered.messages[0]).toEqual({
      role: 'system',
      content: 'Summary of the earlier conversation:\nAda asked about refunds twice.',
    })
  })

  test('trims inside a long tool loop without splitting a call from its result', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => `r${n}`,
    })
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'lookup', args: { n: 1 } }] },
      { toolCalls: [{ name: 'lookup', args: { n: 2 } }] },
      { toolCalls: [{ name: 'lookup', args: { n: 3 } }] },
      'Done.',
    ])
    await new Agent({ model, tools: [lookup], memory: { maxMessages: 3 } }).run('Look up three things')

    const last = model.calls[3]?.messages ?? []
    expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(last[2]).toMatchObject({ role: 'tool', content: 'r3' })
  })

  test('rejects memory options that cannot work', () => {
    expect(() => new Agent({ model: 'local', memory: {} })).toThrow(
      'Agent `agent`: `memory` needs `maxMessages`, `maxTokens` or both.',
    )
    expect(() => new Agent({ model: 'local', memory: { maxMessages: 0 } })).toThrow(
      'Agent `agent`: `memory.maxMessages` must be a positive integer, got 0.',
    )
  })
})
