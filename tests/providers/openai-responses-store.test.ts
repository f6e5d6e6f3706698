import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import { OpenAiResponsesProvider } from '../../src/providers/openai-responses.ts'
import type { ModelSettings } from '../../src/providers/provider.ts'
import { tool } from '../../src/tools/tool.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

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

async function run(
  model: string,
  options: { store?: boolean; settings?: ModelSettings; stream?: boolean } = {},
) {
  server = await startMockLlmServer({
    script: [
      { reasoning: 'Look up Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
      { reasoning: 'Warm.', text: 'Paris is 21°C.' },
    ],
  })
  const provider = new OpenAiResponsesProvider({
    model,
    apiKey: 'k',
    baseURL: server.openaiBaseURL,
    ...(options.store === undefined ? {} : { store: options.store }),
  })
  const agent = new Agent({
    model: provider,
    tools: [getWeather],
    ...(options.settings ? { settings: options.settings } : {}),
  })
  if (options.stream) {
    for await (const _ of agent.stream('Weather in Paris?'));
  } else {
    expect((await agent.run('Weather in Paris?')).output).toBe('Paris is 21°C.')
  }
  const [first, second] = server.journal.map((r) => r.body as Record<string, unknown>)
  const reasoningSentBack = (second?.['input'] as { type?: string }[]).filter(
    (item) => item.type === 'reasoning',
  )
  return { first, reasoningSentBack }
}

const encrypted = `enc_mock_${Buffer.from('Look up Paris.').toString('base64')}`

describe('OpenAI Responses: reasoning across iterations without stored responses', () => {
  test.each([
    ['o4-mini', {}],
    ['gpt-5-mini', {}],
    ['gpt-test', { settings: { reasoning: { effort: 'low' } } }],
    ['o4-mini', { stream: true }],
  ] as const)('%s %o: asks for encrypted reasoning and sends it back', async (model, options) => {
    const { first, reasoningSentBack } = await run(model, options)
    expect(first).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] })
    expect(reasoningSentBack).toEqual([
      {
        type: 'reasoning',
        id: 'rs_mock_0',
        summary: [{ type: 'summary_text', text: 'Look up Paris.' }],
        encrypted_content: encrypted,
      },
    ])
  })

  test('a model that does not reason stores nothing and asks for nothing more', async () => {
    const { first } = await run('gpt-4.1-mini')
    expect(first?.['store']).toBe(false)
    expect(first?.['include']).toBeUndefined()
  })

  test('with `store: true`, reasoning goes back by id alone', async () => {
    const { first, reasoningSentBack } = await run('o4-mini', { store: true })
    expect(first?.['store']).toBe(true)
    expect(first?.['include']).toBeUndefined()
    expect(reasoningSentBack).toEqual([
      { type: 'reasoning', id: 'rs_mock_0', summary: [{ type: 'summary_text', text: 'Look up Paris.' }] },
    ])
  })
})
