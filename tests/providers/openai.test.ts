import { afterEach, describe, expect, test } from 'vitest'
import { ConfigError, ProviderError } from '../../src/errors.ts'
import { OpenAiProvider, type OpenAiProviderOptions } from '../../src/providers/openai.ts'
import type { CompletionRequest } from '../../src/providers/provider.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function openAi(
  script: MockReply[],
  options: Partial<OpenAiProviderOptions> = {},
): Promise<OpenAiProvider> {
  server = await startMockLlmServer({ script })
  return new OpenAiProvider({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-secret-test-key-123456',
    baseURL: server.openaiBaseURL,
    timeoutMs: 2_000,
    ...options,
  })
}

const signal = (): { signal: AbortSignal } => ({ signal: new AbortController().signal })
const sent = (index = 0): Record<string, unknown> => server?.journal[index]?.body as Record<string, unknown>
const failure = (promise: Promise<unknown>): Promise<ProviderError> =>
  promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(ProviderError)
      return error as ProviderError
    },
  )

const request: CompletionRequest = {
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    },
    { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: 'no data', isError: true },
  ],
  tools: [
    { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: {} } },
  ],
  toolChoice: { name: 'get_weather' },
  settings: { temperature: 0, maxTokens: 100, parallelToolCalls: false },
}

describe('OpenAiProvider request', () => {
  test('sends system, tool calls and tool results in Chat Completions form', async () => {
    const provider = await openAi([{ text: 'ok' }])
    await provider.complete(request, signal())
    expect(sent()).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'no data' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      temperature: 0,
      max_tokens: 100,
      stream: false,
    })
  })

  test('uses max_completion_tokens for reasoning model families', async () => {
    const provider = await openAi([{ text: 'ok' }], { model: 'gpt-5-mini' })
    await provider.complete({ ...request, settings: { maxTokens: 50 } }, signal())
    expect(sent()).toMatchObject({ max_completion_tokens: 50 })
    expect(sent()).not.toHaveProperty('max_tokens')
  })

  test('asks for json_schema output, strict only when the schema allows it', async () => {
    const closed = {
      type: 'object',
      properties: { summary: { type: 'string' } },
      required: ['summary'],
      additionalProperties: false,
    }
    const open = { type: 'object', properties: { summary: { type: 'string' } } }
    const provider = await openAi([{ json: { summary: 'a' } }, { json: { summary: 'b' } }])
    await provider.complete(
      { messages: [], tools: [], output: { name: 'answer v1', schema: closed } },
      signal(),
    )
    await provider.complete({ messages: [], tools: [], output: { name: 'answer', schema: open } }, signal())
    expect(sent(0)['response_format']).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer_v1', schema: closed, strict: true },
    })
    expect(sent(1)['response_format']).toMatchObject({ json_schema: { strict: false } })
    expect(sent(0)).not.toHaveProperty('tools')
  })

  test('streams with include_usage and reads the usage chunk', async () => {
    const provider = await openAi([
      { text: 'hi there', usage: { inputTokens: 120, outputTokens: 18, cacheReadTokens: 64 } },
    ])
    let done: unknown
    for await (const event of provider.stream(request, signal()))
      if (event.type === 'done') done = event.completion
    expect(sent()).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    expect(done).toMatchObject({
      usage: { inputTokens: 120, outputTokens: 18, cacheReadTokens: 64, cacheWriteTokens: 0 },
    })
  })

  test('sends the key as a bearer token and never retries inside the SDK', async () => {
    const provider = await openAi([{ text: 'ok' }])
    await provider.complete(request, signal())
    expect(server?.journal[0]?.headers).toMatchObject({
      authorization: 'Bearer sk-secret-test-key-123456',
      'x-stainless-retry-count': '0',
    })
  })

  test('maps cached tokens into usage, with prompt tokens already including them', async () => {
    const provider = await openAi([
      { text: 'ok', usage: { inputTokens: 120, outputTokens: 18, cacheReadTokens: 64 } },
    ])
    const { usage } = await provider.complete(request, signal())
    expect(usage).toEqual({ inputTokens: 120, outputTokens: 18, cacheReadTokens: 64, cacheWriteTokens: 0 })
  })

  test('says which environment variable to set when no key is given', () => {
    const saved = process.env['OPENAI_API_KEY']
    delete process.env['OPENAI_API_KEY']
    try {
      expect(() => new OpenAiProvider({ model: 'gpt-4.1-mini' })).toThrow(ConfigError)
      expect(() => new OpenAiProvider({ model: 'gpt-4.1-mini' })).toThrow(/OPENAI_API_KEY/)
    } finally {
      if (saved !== undefined) process.env['OPENAI_API_KEY'] = saved
    }
  })
})

describe('OpenAiProvider errors', () => {
  test('turns a 429 with retry-after-ms into a retryable error after exactly one request', async () => {
    const provider = await openAi([{ status: 429, retryAfterMs: 1500, retryAfter: 2 }, { text: 'ok' }])
    const error = await failure(provider.complete(request, signal()))
    expect(error).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 1500,
      providerId: 'openai:gpt-4.1-mini',
    })
    expect(error.message).toBe('OpenAI returned 429 for openai:gpt-4.1-mini: Rate limit reached for requests')
    expect(server?.journal).toHaveLength(1)
    await expect(provider.complete(request, signal())).resolves.toMatchObject({ message: { text: 'ok' } })
  })

  test('reads retry-after in seconds when retry-after-ms is absent', async () => {
    const provider = await openAi([{ status: 503, retryAfter: 3 }])
    expect(await failure(provider.complete(request, signal()))).toMatchObject({
      status: 503,
      retryable: true,
      retryAfterMs: 3000,
    })
  })

  test('marks a bad request as not retryable', async () => {
    const provider = await openAi([{ status: 400, message: 'bad schema' }])
    expect(await failure(provider.complete(request, signal()))).toMatchObject({
      status: 400,
      retryable: false,
    })
  })

  test('keeps the API key out of error messages', async () => {
    const provider = await openAi([
      { status: 401, message: 'Incorrect API key provided: sk-secret-test-key-123456.' },
    ])
    const error = await failure(provider.complete(request, signal()))
    expect(error).toMatchObject({ status: 401, retryable: false })
    expect(error.message).not.toContain('secret-test-key')
  })

  test.each(['reset', 'malformed-json', 'truncated-stream'] as const)(
    'surfaces a %s response as a retryable error, without hanging',
    async (fault) => {
      const provider = await openAi([{ fault }, { fault }])
      expect(await failure(provider.complete(request, signal()))).toMatchObject({
        retryable: true,
        status: undefined,
      })
      const stream = async (): Promise<void> => {
        for await (const _ of provider.stream(request, signal()));
      }
      expect(await failure(stream())).toMatchObject({ retryable: true })
    },
  )

  test('surfaces an error frame mid-stream as a retryable error', async () => {
    const provider = await openAi([{ fault: 'stream-error' }])
    const stream = async (): Promise<void> => {
      for await (const _ of provider.stream(request, signal()));
    }
    expect(await failure(stream())).toMatchObject({ retryable: true })
  })

  test('turns a connection refusal into a retryable error', async () => {
    const provider = await openAi([])
    await server?.close()
    server = undefined
    expect(await failure(provider.complete(request, signal()))).toMatchObject({
      retryable: true,
      status: undefined,
    })
  })

  test('turns an SDK timeout into a retryable error', async () => {
    const provider = await openAi([{ text: 'late', latencyMs: 2_000 }], { timeoutMs: 100 })
    const error = await failure(provider.complete(request, signal()))
    expect(error).toMatchObject({ retryable: true })
    expect(error.message).toMatch(/timed out/)
  })
})
