import { createAnthropic } from '@ai-sdk/anthropic'
import { afterEach, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import { AiSdkProvider } from '../../src/providers/ai-sdk.ts'
import { tool } from '../../src/tools/tool.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
})

async function agentOver(script: MockReply[]) {
  server = await startMockLlmServer({ script })
  const anthropic = createAnthropic({ baseURL: `${server.anthropicBaseURL}/v1`, apiKey: 'ant-test' })
  return new Agent({
    model: new AiSdkProvider({ model: anthropic('claude-sonnet-4-5'), id: 'anthropic:claude-sonnet-4-5' }),
    tools: [getWeather],
    settings: { reasoning: { budgetTokens: 2048 } },
  })
}

test('@ai-sdk/anthropic through the bridge: thinking asked for, captured, and sent back with its signature', async () => {
  const agent = await agentOver([
    { reasoning: 'The user wants Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
    { text: 'Paris is 21°C.' },
  ])
  const result = await agent.run('Weather in Paris?')
  expect(result.output).toBe('Paris is 21°C.')
  expect(result.reasoning[0]).toMatchObject({ iteration: 1, thinking: 'The user wants Paris.' })
  const [first, second] = (server?.journal ?? []).map((request) => request.body as Record<string, unknown>)
  expect(first?.['thinking']).toEqual({ type: 'enabled', budget_tokens: 2048 })
  // the tool's JSON Schema comes from its zod parameters
  expect(first?.['tools']).toMatchObject([
    {
      name: 'get_weather',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ])
  expect(JSON.stringify(second?.['messages'])).toContain(
    '{"type":"thinking","thinking":"The user wants Paris.","signature":"sig_mock_0"}',
  )
})

test('@ai-sdk/anthropic through the bridge: cache reads and writes count inside input tokens, and are priced', async () => {
  const agent = await agentOver([
    {
      text: 'Hi.',
      usage: { inputTokens: 2000, outputTokens: 100, cacheReadTokens: 1000, cacheWriteTokens: 500 },
    },
  ])
  const result = await agent.run('Hello')
  expect(result.usage).toMatchObject({
    inputTokens: 2000,
    outputTokens: 100,
    cacheReadTokens: 1000,
    cacheWriteTokens: 500,
  })
  // Anthropic's list prices for Claude Sonnet 4.5 per 1M tokens: input $3, output $15, cache read $0.30, cache write
  // (5 minutes) $3.75; 500 uncached + 1000 read + 500 written + 100 out
  expect(result.costUsd).toBeCloseTo((500 * 3 + 1000 * 0.3 + 500 * 3.75 + 100 * 15) / 1_000_000, 10)
})
