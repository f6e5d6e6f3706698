import { afterEach, describe, expect, test } from 'vitest'
import { Agent } from '../../src/engine/agent.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const sdks: [string, (server: MockLlmServer) => Provider][] = [
  ['openai', (s) => new OpenAiProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: s.openaiBaseURL })],
  [
    'anthropic',
    (s) => new AnthropicProvider({ model: 'claude-test', apiKey: 'ant-test', baseURL: s.anthropicBaseURL }),
  ],
]

describe.each(sdks)('a reply cut off over the real %s SDK', (_api, make) => {
  test('a reply stopped by the token limit ends the run as `truncated`, not as a final answer', async () => {
    server = await startMockLlmServer({
      script: [{ text: 'The refund policy says that', finishReason: 'length' }],
    })
    const result = await new Agent({ model: make(server) }).run('Summarise the refund policy')

    expect(result.stopReason).toBe('truncated')
    expect(result.output).toBe('The refund policy says that')
    expect(result.error).toBe(
      "The reply was cut off at the model's token limit (finish reason `length`) after 27 characters; raise `maxTokens` or ask for a shorter answer.",
    )
  })

  test('a reply stopped by the content filter ends the run as `content_filter`', async () => {
    server = await startMockLlmServer({ script: [{ text: '', finishReason: 'content_filter' }] })
    const result = await new Agent({ model: make(server) }).run('Something the filter blocks')

    expect(result.stopReason).toBe('content_filter')
    expect(result.error).toBe(
      "The provider's content filter stopped the reply (finish reason `content_filter`).",
    )
  })

  test('streams end the same way', async () => {
    server = await startMockLlmServer({ script: [{ text: 'Cut off mid', finishReason: 'length' }] })
    const events = []
    for await (const event of new Agent({ model: make(server) }).stream('Go')) events.push(event)
    const last = events.at(-1)
    expect(last?.type === 'result' && last.result.stopReason).toBe('truncated')
  })
})
