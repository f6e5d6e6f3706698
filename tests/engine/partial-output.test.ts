import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import type { AgentEvent } from '../../src/engine/agent-run.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const Forecast = z.object({
  city: z.string(),
  days: z.array(z.object({ day: z.string(), tempC: z.number() })),
  summary: z.string(),
})
const forecast = {
  city: 'Paris',
  days: [
    { day: 'Mon', tempC: 21 },
    { day: 'Tue', tempC: 18 },
  ],
  summary: 'Warm, then cooler',
}

const apis: [string, (server: MockLlmServer) => Provider][] = [
  ['openai', (s) => new OpenAiProvider({ model: 'gpt-test', apiKey: 'k', baseURL: s.openaiBaseURL })],
  [
    'anthropic',
    (s) => new AnthropicProvider({ model: 'claude-test', apiKey: 'k', baseURL: s.anthropicBaseURL }),
  ],
]

async function streamed(agent: Agent<unknown>, input = 'Forecast for Paris') {
  const events: AgentEvent<unknown>[] = []
  for await (const event of agent.stream(input)) events.push(event)
  const result = events.find((event) => event.type === 'result')?.result
  const partials = events.flatMap((event) => (event.type === 'partial-output' ? [event.partial] : []))
  return { result, partials }
}

describe.each(apis)('partial structured output over the real %s SDK', (_api, make) => {
  test('streams what parses so far, then the validated whole', async () => {
    // the mock server streams text word by word: `{"city":…,"summary":"Warm, `, `then `, `cooler"}`
    server = await startMockLlmServer({ script: [{ json: forecast }] })
    const agent = new Agent({ model: make(server), output: Forecast })

    const { result, partials } = await streamed(agent)

    // partial-json leaves an unfinished string without its trailing space
    expect(partials).toEqual([
      { ...forecast, summary: 'Warm,' },
      { ...forecast, summary: 'Warm, then' },
      forecast,
    ])
    expect(result?.parsed).toEqual(forecast)
  })

  test('the final output is still validated: a reply that streams well but fails the schema is retried', async () => {
    server = await startMockLlmServer({
      script: [{ json: { ...forecast, days: 'none' } }, { json: forecast }],
    })
    const agent = new Agent({ model: make(server), output: Forecast })

    const { result, partials } = await streamed(agent)

    expect(partials).toContainEqual({ ...forecast, days: 'none' })
    expect(partials.at(-1)).toEqual(forecast)
    expect(result?.trace.filter((step) => step.type === 'structured_retry')).toHaveLength(1)
    expect(result?.parsed).toEqual(forecast)
  })
})

describe('partial structured output elsewhere', () => {
  test('a model without streaming (local) gives one partial, the whole reply', async () => {
    const agent = new Agent({ model: 'local', output: z.object({ city: z.string() }) })

    const { result, partials } = await streamed(agent, 'city Paris')

    expect(partials).toEqual([result?.parsed])
  })

  test('without a structured output there are no partial-output events', async () => {
    server = await startMockLlmServer({ script: [{ text: '{"not":"structured"}' }] })
    const agent = new Agent({ model: apis[0]![1](server) })

    const { partials } = await streamed(agent)

    expect(partials).toEqual([])
  })
})
