import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { createOpenAI } from '@ai-sdk/openai'
import { Agent } from '../../src/engine/agent.ts'
import { AiSdkProvider } from '../../src/providers/ai-sdk.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { OpenAiResponsesProvider } from '../../src/providers/openai-responses.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { tool } from '../../src/tools/tool.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const sdks: [string, (server: MockLlmServer) => Provider][] = [
  [
    'openai',
    (s) =>
      new OpenAiProvider({
        model: 'gpt-test',
        apiKey: 'sk-test',
        baseURL: s.openaiBaseURL,
        timeoutMs: 5_000,
      }),
  ],
  [
    'openai-responses',
    (s) =>
      new OpenAiResponsesProvider({
        model: 'gpt-test',
        apiKey: 'sk-test',
        baseURL: s.openaiBaseURL,
        timeoutMs: 5_000,
      }),
  ],
  [
    'anthropic',
    (s) =>
      new AnthropicProvider({
        model: 'claude-test',
        apiKey: 'ant-test',
        baseURL: s.anthropicBaseURL,
        timeoutMs: 5_000,
      }),
  ],
  [
    'ai-sdk-chat',
    (s) =>
      new AiSdkProvider({
        model: createOpenAI({ baseURL: s.openaiBaseURL, apiKey: 'sk-test' }).chat('gpt-test'),
        id: 'openai:gpt-test',
      }),
  ],
  [
    'ai-sdk-responses',
    (s) =>
      new AiSdkProvider({
        model: createOpenAI({ baseURL: s.openaiBaseURL, apiKey: 'sk-test' }).responses('gpt-test'),
        id: 'openai:gpt-test',
      }),
  ],
]

/** The wire format each provider speaks: the bridge's entries speak OpenAI's through `@ai-sdk/openai`. */
const wireOf: Record<string, string> = {
  'ai-sdk-chat': 'openai',
  'ai-sdk-responses': 'openai-responses',
}

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => {
    if (city === 'Atlantis') throw new Error('unknown city')
    return { city, tempC: 21 }
  },
})

async function agentOver(make: (server: MockLlmServer) => Provider, script: MockReply[], extra = {}) {
  server = await startMockLlmServer({ script })
  return new Agent({ model: make(server), tools: [getWeather], retry: { initialDelayMs: 1 }, ...extra })
}

describe.each(sdks)('the agent over the real %s SDK', (name, make) => {
  const api = wireOf[name] ?? name
  test('runs a multi-turn tool conversation and feeds results and errors back', async () => {
    const agent = await agentOver(make, [
      {
        toolCalls: [
          { name: 'get_weather', args: { city: 'Paris' } },
          { name: 'get_weather', args: { city: 'Atlantis' } },
        ],
      },
      { text: 'Paris is 21°C; Atlantis is unknown.' },
    ])
    const result = await agent.run('Weather in Paris and Atlantis?')
    expect(result).toMatchObject({
      stopReason: 'final',
      output: 'Paris is 21°C; Atlantis is unknown.',
      iterations: 2,
    })
    expect(result.toolCalls.map((call) => [call.name, call.error === undefined])).toEqual([
      ['get_weather', true],
      ['get_weather', false],
    ])
    const second = JSON.stringify(server?.journal[1]?.body)
    if (api === 'openai') expect(second).toContain('"role":"tool"')
    else if (api === 'openai-responses') expect(second).toContain('"type":"function_call_output"')
    else expect(second).toContain('"is_error":true')
  })

  test('returns validated structured output', async () => {
    const agent = await agentOver(make, [{ json: { summary: 'sunny', tempC: 21 } }], {
      output: z.object({ summary: z.string(), tempC: z.number() }),
    })
    const result = await agent.run('Summarize the weather.')
    expect(result.parsed).toEqual({ summary: 'sunny', tempC: 21 })
    const body = server?.journal[0]?.body as Record<string, unknown>
    const field = { openai: 'response_format', 'openai-responses': 'text', anthropic: 'output_config' }[api]
    expect(body[field ?? '']).toBeDefined()
  })

  test('retries a rate limit the server asked to wait out, then succeeds', async () => {
    const agent = await agentOver(make, [{ status: 429, retryAfterMs: 1 }, { text: 'done' }])
    const result = await agent.run('Hello?')
    expect(result.output).toBe('done')
    expect(result.trace.filter((step) => step.type === 'retry')).toHaveLength(1)
    // the SDK's own retries are off: every retry is the engine's
    if (name.startsWith('ai-sdk')) expect(server?.journal).toHaveLength(2)
    else expect(server?.journal.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0'])
  })

  test('ends errored with a typed message once retries are exhausted', async () => {
    const agent = await agentOver(make, [{ status: 529 }, { status: 529 }, { status: 529 }], {
      retry: { maxRetries: 2, initialDelayMs: 1 },
    })
    const result = await agent.run('Hello?')
    expect(result.stopReason).toBe('error')
    expect(result.error).toMatch(/returned 529/)
    expect(server?.journal).toHaveLength(3)
  })
})
