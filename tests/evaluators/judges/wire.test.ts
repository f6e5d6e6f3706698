import { afterEach, describe, expect, test } from 'vitest'
import { AnthropicProvider } from '../../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../../src/providers/openai.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../../src/testing/index.ts'
import { judge } from './helpers.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const verdictCall = (choice: string): MockReply => ({
  toolCalls: [
    { name: 'verdict', args: { reasons: 'It confirms the cancellation and the end date.', choice } },
  ],
  usage: { inputTokens: 300, outputTokens: 40 },
})

describe('a judge over HTTP', () => {
  test('calls the OpenAI SDK with the forced verdict tool and parses its tool call', async () => {
    server = await startMockLlmServer({ script: [{ status: 500 }, verdictCall('correct')] })
    const provider = new OpenAiProvider({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      baseURL: server.openaiBaseURL,
    })
    const result = await judge(
      { correctness: true, reference: 'Cancelled; it ends on 31 May.' },
      { provider, retry: { initialDelayMs: 0 } },
    )
    const body = server.journal[1]?.body as {
      tool_choice: unknown
      tools: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[]
      messages: { role: string; content: string }[]
      temperature: number
    }
    expect(server.journal).toHaveLength(2)
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'verdict' } })
    expect(Object.keys(body.tools[0]?.function.parameters.properties ?? {})).toEqual(['reasons', 'choice'])
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user'])
    expect(body.messages[1]?.content).toContain('<reference>\nCancelled; it ends on 31 May.\n</reference>')
    expect(body.temperature).toBe(0)
    expect(result).toMatchObject({
      pass: true,
      score: 1,
      details: {
        judgeModel: 'openai:gpt-4.1-mini',
        choice: 'correct',
        reasons: 'It confirms the cancellation and the end date.',
        usage: { inputTokens: 300, outputTokens: 40 },
        costUsd: expect.any(Number) as unknown,
      },
    })
  })

  test('calls the Anthropic SDK with the forced verdict tool and parses its tool_use block', async () => {
    server = await startMockLlmServer({ script: [verdictCall('incorrect')] })
    const provider = new AnthropicProvider({
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-test',
      baseURL: server.anthropicBaseURL,
    })
    const result = await judge({ correctness: true, reference: 'Cancelled.' }, { provider })
    const body = server.journal[0]?.body as {
      tool_choice: unknown
      tools: { input_schema: { properties: object } }[]
    }
    expect(body.tool_choice).toMatchObject({ type: 'tool', name: 'verdict' })
    expect(Object.keys(body.tools[0]?.input_schema.properties ?? {})).toEqual(['reasons', 'choice'])
    expect(result).toMatchObject({
      pass: false,
      score: 0,
      details: { judgeModel: 'anthropic:claude-sonnet-4-5' },
    })
  })

  test('a malformed reply from the API errors the verdict with the raw text', async () => {
    server = await startMockLlmServer({ script: [{ text: 'Looks correct to me.' }] })
    const provider = new OpenAiProvider({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      baseURL: server.openaiBaseURL,
    })
    await expect(judge({ toxicity: true }, { provider })).rejects.toThrow(
      'Judge `toxicity` gave an unparseable reply: it made no `verdict` tool call and its text is not a JSON object. Raw reply: "Looks correct to me."',
    )
  })
})
