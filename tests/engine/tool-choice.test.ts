import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import { ConfigError } from '../../src/errors.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { OpenAiResponsesProvider } from '../../src/providers/openai-responses.ts'
import type { Provider } from '../../src/providers/provider.ts'
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

const route = tool({
  name: 'route',
  description: 'Send the request to a team',
  parameters: z.object({ team: z.enum(['billing', 'support']) }),
  terminal: true,
  execute: ({ team }) => team,
})

/** Each API's wire form of `{ name: 'get_weather' }` and of `required`. */
const apis: [string, (server: MockLlmServer) => Provider, unknown, unknown][] = [
  [
    'openai',
    (s) => new OpenAiProvider({ model: 'gpt-test', apiKey: 'k', baseURL: s.openaiBaseURL }),
    { type: 'function', function: { name: 'get_weather' } },
    'required',
  ],
  [
    'openai-responses',
    (s) => new OpenAiResponsesProvider({ model: 'gpt-test', apiKey: 'k', baseURL: s.openaiBaseURL }),
    { type: 'function', name: 'get_weather' },
    'required',
  ],
  [
    'anthropic',
    (s) => new AnthropicProvider({ model: 'claude-test', apiKey: 'k', baseURL: s.anthropicBaseURL }),
    { type: 'tool', name: 'get_weather' },
    { type: 'any' },
  ],
]

function bodyOf(request: { body: unknown } | undefined): Record<string, unknown> {
  return request?.body as Record<string, unknown>
}

describe.each(apis)('toolChoice over the real %s SDK', (_api, make, named, required) => {
  async function agentOver(options: { toolChoice?: 'required' | { name: string } }): Promise<Agent> {
    server = await startMockLlmServer({
      script: [{ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }, { text: 'Paris is 21°C.' }],
    })
    return new Agent({ model: make(server), tools: [getWeather], ...options })
  }

  test('a named tool is sent with the first request, and the next request is free to answer', async () => {
    const agent = await agentOver({ toolChoice: { name: 'get_weather' } })

    const result = await agent.run('Weather in Paris?')

    expect(result.output).toBe('Paris is 21°C.')
    const [first, second] = server!.journal
    expect(bodyOf(first).tool_choice).toEqual(named)
    expect(bodyOf(second).tool_choice).toBeUndefined()
  })

  test('a run option overrides the agent’s choice', async () => {
    const agent = await agentOver({ toolChoice: { name: 'get_weather' } })

    await agent.run('Weather in Paris?', { toolChoice: 'required' })

    expect(bodyOf(server!.journal[0]).tool_choice).toEqual(required)
  })
})

describe('toolChoice in the engine', () => {
  test('`resetToolChoice: false` sends the choice with every request', async () => {
    server = await startMockLlmServer({
      script: [
        { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
        { toolCalls: [{ name: 'route', args: { team: 'support' } }] },
      ],
    })
    const agent = new Agent({
      model: new OpenAiProvider({ model: 'gpt-test', apiKey: 'k', baseURL: server.openaiBaseURL }),
      tools: [getWeather, route],
      toolChoice: 'required',
      resetToolChoice: false,
    })

    const result = await agent.run('Weather in Paris, then route it')

    expect(server.journal.map((request) => bodyOf(request).tool_choice)).toEqual(['required', 'required'])
    expect(result.stopReason).toBe('terminal_tool')
  })

  test('a named terminal tool is a router: one model call, and the run ends with the tool’s call', async () => {
    const agent = new Agent({ model: 'local', tools: [getWeather, route], toolChoice: { name: 'route' } })

    const result = await agent.run('My invoice is wrong, billing please')

    expect(result.iterations).toBe(1)
    expect(result.stopReason).toBe('terminal_tool')
    expect(result.toolCalls.map((call) => [call.name, call.args])).toEqual([['route', { team: 'billing' }]])
    expect(result.output).toBe('billing')
  })

  test('the local model honours none and required', async () => {
    const agent = new Agent({ model: 'local', tools: [getWeather] })

    const none = await agent.run('Weather in Paris?', { toolChoice: 'none' })
    const required = await agent.run('Tell me something nice', { toolChoice: 'required' })

    expect(none.toolCalls).toEqual([])
    expect(required.toolCalls.map((call) => call.name)).toEqual(['get_weather'])
  })

  test('a named tool the agent lacks is a ConfigError at construction, with a suggestion', () => {
    expect(
      () => new Agent({ model: 'local', tools: [getWeather], toolChoice: { name: 'get_wether' } }),
    ).toThrow(
      /`toolChoice` names the tool `get_wether`, which the agent does not have\. Did you mean `get_weather`\?/,
    )
    expect(
      () => new Agent({ model: 'local', tools: [getWeather], toolChoice: 'get_weather' as never }),
    ).toThrow(/write \{ name: 'get_weather' \}/)
  })

  test('a run’s named tool the agent lacks is a ConfigError', async () => {
    const agent = new Agent({ model: 'local', tools: [getWeather] })

    await expect(agent.run('hi', { toolChoice: { name: 'route' } })).rejects.toThrow(ConfigError)
    await expect(agent.run('hi', { toolChoice: { name: 'route' } })).rejects.toThrow(
      /Its tools: `get_weather`/,
    )
  })
})

describe('toolChoice that an API refuses', () => {
  test('Anthropic’s extended thinking with a forced tool is a clear error, sent to no one and never retried', async () => {
    server = await startMockLlmServer({ script: [] })
    const agent = new Agent({
      model: new AnthropicProvider({ model: 'claude-test', apiKey: 'k', baseURL: server.anthropicBaseURL }),
      tools: [getWeather],
      toolChoice: 'required',
      settings: { reasoning: { effort: 'low' } },
    })

    const result = await agent.run('Weather in Paris?')

    expect(result.stopReason).toBe('error')
    expect(result.error).toBe(
      "Anthropic does not take extended thinking with a forced tool choice: use toolChoice 'auto' or 'none', or drop `settings.reasoning`.",
    )
    expect(server.journal).toHaveLength(0)
    expect(result.trace.filter((step) => step.type === 'retry')).toEqual([])
  })
})
