import { afterEach, describe, expect, test } from 'vitest'
import { ConfigError, ProviderError } from '../../src/errors.ts'
import { AnthropicProvider, type AnthropicProviderOptions } from '../../src/providers/anthropic.ts'
import type { CompletionEvent, CompletionRequest } from '../../src/providers/provider.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function anthropic(
  script: MockReply[],
  options: Partial<AnthropicProviderOptions> = {},
): Promise<AnthropicProvider> {
  server = await startMockLlmServer({ script })
  return new AnthropicProvider({
    model: 'claude-sonnet-4-5',
    apiKey: 'ant-secret-test-key-123456',
    baseURL: server.anthropicBaseURL,
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
async function drain(events: AsyncIterable<CompletionEvent>): Promise<CompletionEvent[]> {
  const list: CompletionEvent[] = []
  for await (const event of events) list.push(event)
  return list
}

const request: CompletionRequest = {
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'Weather in Paris and Oslo?' },
    {
      role: 'assistant',
      content: 'Checking.',
      toolCalls: [
        { id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ],
    },
    { role: 'tool', toolCallId: 'toolu_1', name: 'get_weather', content: '{"temp_c":21}' },
    { role: 'tool', toolCallId: 'toolu_2', name: 'get_weather', content: 'timeout', isError: true },
  ],
  tools: [
    { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: {} } },
  ],
  toolChoice: 'required',
  settings: { parallelToolCalls: false },
}

describe('AnthropicProvider request', () => {
  test('sends the system prompt at the top and merges consecutive tool results into one user turn', async () => {
    const provider = await anthropic([{ text: 'ok' }])
    await provider.complete(request, signal())
    expect(sent()).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp_c":21}' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'timeout', is_error: true },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Current weather',
          input_schema: { type: 'object', properties: {} },
        },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stream: false,
    })
  })

  test('asks for structured output through output_config and takes max_tokens from the settings', async () => {
    const provider = await anthropic([{ json: { summary: 'sunny' } }])
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] }
    const completion = await provider.complete(
      {
        messages: [{ role: 'user', content: 'Summarize.' }],
        tools: [],
        output: { name: 'answer', schema },
        settings: { maxTokens: 300 },
      },
      signal(),
    )
    expect(sent()).toMatchObject({
      max_tokens: 300,
      output_config: { format: { type: 'json_schema', schema } },
    })
    expect(JSON.parse(completion.message.text)).toEqual({ summary: 'sunny' })
    expect(provider.capabilities.structuredOutput).toBe(true)
  })

  test('sends the key, the API version and no SDK retries', async () => {
    const provider = await anthropic([{ text: 'ok' }])
    await provider.complete(request, signal())
    expect(server?.journal[0]?.headers).toMatchObject({
      authorization: 'Bearer ant-secret-test-key-123456',
      'anthropic-version': '2026-10-21',
      'x-stainless-retry-count': '0',
    })
  })

  test('adds cache reads and writes into input tokens', async () => {
    const usage = { inputTokens: 120, outputTokens: 18, cacheReadTokens: 64, cacheWriteTokens: 6 }
    const provider = await anthropic([
      { text: 'ok', usage },
      { text: 'ok', usage },
    ])
    expect((await provider.complete(request, signal())).usage).toEqual(usage)
    const events = await drain(provider.stream(request, signal()))
    expect(events.at(-1)).toMatchObject({ type: 'done', completion: { usage } })
  })

  test('streams text and tool_use blocks from event frames', async () => {
    const provider = await anthropic([
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', args: { city: 'Paris' } },
          { name: 'get_weather', args: { city: 'Oslo' } },
        ],
      },
    ])
    const events = await drain(provider.stream(request, signal()))
    expect(
      events
        .filter((e) => e.type === 'tool-call-delta' && e.name)
        .map((e) => e.type === 'tool-call-delta' && e.index),
    ).toEqual([0, 1])
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      completion: {
        message: {
          text: 'Checking both.',
          toolCalls: [
            { name: 'get_weather', arguments: '{"city":"Paris"}' },
            { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        },
        finishReason: 'tool_calls',
        model: 'claude-sonnet-4-5',
      },
    })
  })

  test('says which environment variable to set when no key is given', () => {
    const saved = process.env['ANTHROPIC_API_KEY']
    delete process.env['ANTHROPIC_API_KEY']
    try {
      expect(() => new AnthropicProvider({ model: 'claude-sonnet-4-5' })).toThrow(ConfigError)
      expect(() => new AnthropicProvider({ model: 'claude-sonnet-4-5' })).toThrow(/ANTHROPIC_API_KEY/)
    } finally {
      if (saved !== undefined) process.env['ANTHROPIC_API_KEY'] = saved
    }
  })
})

describe('AnthropicProvider errors', () => {
  test('turns a 529 overloaded into a retryable error after exactly one request', async () => {
    const provider = await anthropic([{ status: 529 }, { text: 'ok' }])
    const error = await failure(provider.complete(request, signal()))
    expect(error).toMatchObject({ status: 529, retryable: true, providerId: 'anthropic:claude-sonnet-4-5' })
    expect(error.message).toBe('Anthropic returned 529 for anthropic:claude-sonnet-4-5: Overloaded')
    expect(server?.journal).toHaveLength(1)
    await expect(provider.complete(request, signal())).resolves.toMatchObject({ message: { text: 'ok' } })
  })

  test('reads retry-after-ms before retry-after on a 429', async () => {
    const provider = await anthropic([
      { status: 429, retryAfterMs: 250, retryAfter: 2 },
      { status: 429, retryAfter: 2 },
    ])
    expect(await failure(provider.complete(request, signal()))).toMatchObject({
      status: 429,
      retryAfterMs: 250,
    })
    expect(await failure(provider.complete(request, signal()))).toMatchObject({
      status: 429,
      retryAfterMs: 2000,
    })
  })

  test('marks an invalid request as not retryable and keeps the key out of the message', async () => {
    const provider = await anthropic([{ status: 400, message: 'bad key ant-secret-test-key-123456' }])
    const error = await failure(provider.complete(request, signal()))
    expect(error).toMatchObject({ status: 400, retryable: false })
    expect(error.message).not.toContain('secret-test-key')
  })

  test.each(['reset', 'malformed-json', 'truncated-stream', 'stream-error'] as const)(
    'surfaces a %s response as a retryable error, without hanging',
    async (fault) => {
      const provider = await anthropic([{ fault }, { fault }])
      expect(await failure(provider.complete(request, signal()))).toMatchObject({ retryable: true })
      expect(await failure(drain(provider.stream(request, signal())))).toMatchObject({ retryable: true })
    },
  )

  test('rejects with the signal reason when aborted mid-stream', async () => {
    const provider = await anthropic([{ text: 'one two three four five six', chunkDelayMs: 200 }])
    const controller = new AbortController()
    const reason = new Error('stop streaming')
    const events: CompletionEvent[] = []
    const run = (async () => {
      for await (const event of provider.stream(request, { signal: controller.signal })) {
        events.push(event)
        controller.abort(reason)
      }
    })()
    await expect(run).rejects.toBe(reason)
    expect(events.some((e) => e.type === 'done')).toBe(false)
  })
})
