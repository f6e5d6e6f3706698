import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { tool } from '../../src/tools/tool.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const page = 'x'.repeat(20_000)

function readPage(options: { maxResultChars?: number } = {}) {
  return tool({
    name: 'read_page',
    description: 'Reads a web page',
    parameters: z.object({ url: z.string() }),
    execute: () => page,
    ...options,
  })
}

async function runOver(agentOptions: { maxToolResultChars?: number }, toolOptions = {}) {
  server = await startMockLlmServer({
    script: [
      { toolCalls: [{ name: 'read_page', args: { url: 'https://example.com' } }] },
      { text: 'Read it.' },
    ],
  })
  const agent = new Agent({
    model: new OpenAiProvider({ model: 'gpt-test', apiKey: 'k', baseURL: server.openaiBaseURL }),
    tools: [readPage(toolOptions)],
    ...agentOptions,
  })
  const result = await agent.run('Read example.com')
  const second = server.journal[1]?.body as { messages: { role: string; content: string }[] }
  return { result, sent: second.messages.find((message) => message.role === 'tool')?.content ?? '' }
}

describe('tool result limits', () => {
  test('a tool’s `maxResultChars` cuts what the model is sent, with a marker, and the trace records it', async () => {
    const { result, sent } = await runOver({}, { maxResultChars: 7_655 })

    expect(sent).toBe(`${'x'.repeat(7_655)}…[truncated 12,345 of 20,000 characters]`)
    const step = result.trace.find((entry) => entry.type === 'tool_result')
    expect(step).toMatchObject({ resultChars: sent.length, truncatedFrom: 20_000 })
    expect(result.toolCalls[0]?.result).toBe(page)
  })

  test('the agent’s `maxToolResultChars` applies to tools without their own limit; a tool’s own wins', async () => {
    const byAgent = await runOver({ maxToolResultChars: 100 })
    expect(byAgent.sent).toBe(`${'x'.repeat(100)}…[truncated 19,900 of 20,000 characters]`)
    await server?.close()

    const byTool = await runOver({ maxToolResultChars: 100 }, { maxResultChars: 50 })
    expect(byTool.sent.startsWith(`${'x'.repeat(50)}…[truncated 19,950 of`)).toBe(true)
  })

  test('a result that fits is sent whole, with nothing in the trace about truncation', async () => {
    const { result, sent } = await runOver({ maxToolResultChars: 20_000 })

    expect(sent).toBe(page)
    expect(result.trace.find((entry) => entry.type === 'tool_result')).not.toHaveProperty('truncatedFrom')
  })

  test('a cut never splits a surrogate pair', async () => {
    const emoji = tool({
      name: 'read_emoji',
      description: 'Reads emoji',
      parameters: z.object({}),
      maxResultChars: 3,
      execute: () => '😀😀😀',
    })
    const agent = new Agent({ model: 'local', tools: [emoji] })

    const result = await agent.run('read emoji')

    const sent = result.messages.find((message) => message.role === 'tool')?.content
    expect(sent).toBe('😀…[truncated 4 of 6 characters]')
  })

  test('limits that are not positive whole numbers are clear errors', () => {
    expect(() => readPage({ maxResultChars: 0 })).toThrow(
      /Tool `read_page`: `maxResultChars` must be a positive whole number of characters, got 0\./,
    )
    expect(() => new Agent({ model: 'local', maxToolResultChars: 1.5 })).toThrow(
      /Agent `agent`: `maxToolResultChars` must be a positive whole number/,
    )
  })
})
