import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import type { AgentEvent } from '../../src/engine/agent-run.ts'
import { createAnthropic } from '@ai-sdk/anthropic'
import { AiSdkProvider } from '../../src/providers/ai-sdk.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiResponsesProvider } from '../../src/providers/openai-responses.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { tool } from '../../src/tools/tool.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** What each API must be sent back in the second request so the model keeps its train of thought. */
const apis: [string, (server: MockLlmServer) => Provider, string][] = [
  [
    'anthropic',
    (s) => new AnthropicProvider({ model: 'claude-test', apiKey: 'k', baseURL: s.anthropicBaseURL }),
    '{"type":"thinking","thinking":"The user wants Paris.","signature":"sig_mock_0"}',
  ],
  [
    'openai-responses',
    (s) => new OpenAiResponsesProvider({ model: 'gpt-test', apiKey: 'k', baseURL: s.openaiBaseURL }),
    // nothing is stored (`store: false`), so the item goes back with the encrypted content the API sent
    '{"type":"reasoning","id":"rs_mock_0","summary":[{"type":"summary_text","text":"The user wants Paris."}],"encrypted_content":"enc_mock_VGhlIHVzZXIgd2FudHMgUGFyaXMu"}',
  ],
  [
    'ai-sdk-anthropic',
    (s) =>
      new AiSdkProvider({
        model: createAnthropic({ baseURL: `${s.anthropicBaseURL}/v1`, apiKey: 'k' })('claude-test'),
      }),
    '{"type":"thinking","thinking":"The user wants Paris.","signature":"sig_mock_0"}',
  ],
]

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
})

async function agentOver(make: (server: MockLlmServer) => Provider): Promise<Agent> {
  server = await startMockLlmServer({
    script: [
      {
        reasoning: 'The user wants Paris.',
        text: 'Checking.',
        toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }],
      },
      { reasoning: 'It is warm.', text: 'Paris is 21°C.' },
    ],
  })
  return new Agent({
    model: make(server),
    tools: [getWeather],
    settings: { reasoning: { effort: 'low' } },
  })
}

describe.each(apis)('reasoning over the real %s SDK', (api, make, sentBack) => {
  test('is captured per model call, traced, and sent back with the next request', async () => {
    const agent = await agentOver(make)

    const result = await agent.run('Weather in Paris?')

    expect(result.reasoning).toEqual([
      { iteration: 1, text: 'Checking.', thinking: 'The user wants Paris.' },
      { iteration: 2, text: '', thinking: 'It is warm.' },
    ])
    const traced = result.trace.flatMap((step) => (step.type === 'llm_call' ? [step.reasoning] : []))
    expect(traced).toEqual(['The user wants Paris.', 'It is warm.'])
    expect(JSON.stringify(server?.journal[1]?.body)).toContain(sentBack)
    const first = server?.journal[0]?.body as Record<string, unknown>
    if (api.includes('anthropic')) expect(first['thinking']).toEqual({ type: 'enabled', budget_tokens: 1024 })
    else expect(first['reasoning']).toEqual({ summary: 'auto', effort: 'low' })
  })

  test('streams as reasoning deltas, and the streamed reply goes back the same', async () => {
    const agent = await agentOver(make)

    const events: AgentEvent[] = []
    for await (const event of agent.stream('Weather in Paris?')) events.push(event)

    const thinking = events.flatMap((event) => (event.type === 'reasoning-delta' ? [event] : []))
    expect(
      thinking
        .filter((e) => e.iteration === 1)
        .map((e) => e.text)
        .join(''),
    ).toBe('The user wants Paris.')
    expect(
      thinking
        .filter((e) => e.iteration === 2)
        .map((e) => e.text)
        .join(''),
    ).toBe('It is warm.')
    expect(JSON.stringify(server?.journal[1]?.body)).toContain(sentBack)
  })
})
