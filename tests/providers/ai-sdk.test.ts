import { createOpenAI } from '@ai-sdk/openai'
import { InvalidResponseDataError, LoadAPIKeyError, UnsupportedFunctionalityError } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import { ConfigError, ProviderError } from '../../src/errors.ts'
import { AiSdkProvider } from '../../src/providers/ai-sdk.ts'
import type { AiSdkLanguageModel } from '../../src/providers/ai-sdk-model.ts'
import type { CompletionEvent, CompletionRequest } from '../../src/providers/provider.ts'
import type { InputPart, RateLimitReading } from '../../src/types.ts'
import { tool } from '../../src/tools/tool.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'
import { mockModelPlaying } from './ai-sdk-subjects.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const live = () => ({ signal: new AbortController().signal })
const ask = (content: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [{ role: 'user', content }],
  tools: [],
  ...extra,
})

async function overMock(script: MockReply[], api: 'chat' | 'responses' = 'chat', id = 'openai:gpt-test') {
  server = await startMockLlmServer({ script })
  const openai = createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'sk-secret-123' })
  return new AiSdkProvider({ model: openai[api]('gpt-test'), id, secrets: ['sk-secret-123'] })
}

/** A V3 model answering one fixed result, recording the options of every call. */
function modelAnswering(result: Partial<Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>>) {
  return new MockLanguageModelV3({
    provider: 'google.generative-ai',
    modelId: 'gemini-2.5-flash',
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'STOP' },
      usage: {
        inputTokens: { total: 1000, noCache: 1000, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 100, text: 100, reasoning: 0 },
      },
      warnings: [],
      ...result,
    }),
  })
}

describe('usage and finish reasons', () => {
  test('counts cache reads and writes inside input tokens and reports the model that answered', async () => {
    const provider = new AiSdkProvider({ model: mockModelPlaying([{ text: 'hi' }]), id: 'mock:mock-model' })
    const completion = await provider.complete(ask('hello'), live())
    expect(completion.usage).toEqual({
      inputTokens: 120,
      outputTokens: 18,
      cacheReadTokens: 64,
      cacheWriteTokens: 8,
    })
    expect(completion.model).toBe('mock-model-2026')
  })

  test('reads the flat usage and plain finish reason of a V2 model (AI SDK 5)', async () => {
    // AI SDK 5's provider packages need `ai@5`; a V2 model is written out here, in the shape of @ai-sdk/provider 2.x
    const v2: AiSdkLanguageModel = {
      specificationVersion: 'v2',
      provider: 'openai.chat',
      modelId: 'gpt-test',
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'cut' }],
        finishReason: 'length',
        usage: { inputTokens: 100, outputTokens: 7, totalTokens: 107, cachedInputTokens: 40 },
      }),
      doStream: () => Promise.reject(new Error('not used')),
    }
    const completion = await new AiSdkProvider({ model: v2 }).complete(ask('hello'), live())
    expect(completion.usage).toEqual({
      inputTokens: 100,
      outputTokens: 7,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
    })
    expect(completion.finishReason).toBe('length')
  })

  test('parses the text a V4 model marks as its structured output, not its drafts (AI SDK 7)', async () => {
    // AI SDK 7's packages need Node 22; a V4 model is written out here, in the shape of @ai-sdk/provider 4.x
    const v4: AiSdkLanguageModel = {
      specificationVersion: 'v4',
      provider: 'openai.responses',
      modelId: 'gpt-test',
      doGenerate: async () => ({
        content: [
          { type: 'text', text: 'Draft: {"summary": "rai' },
          { type: 'text', text: '{"summary":"sunny"}' },
        ],
        structuredOutputText: '{"summary":"sunny"}',
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
      }),
      doStream: () => Promise.reject(new Error('not used')),
    }
    const provider = new AiSdkProvider({ model: v4 })
    const output = { name: 'answer', schema: { type: 'object' } }
    expect((await provider.complete(ask('hi', { output }), live())).message.text).toBe('{"summary":"sunny"}')
    expect((await provider.complete(ask('hi'), live())).message.text).toBe(
      'Draft: {"summary": "rai{"summary":"sunny"}',
    )
  })

  test.each([
    [{ unified: 'content-filter', raw: 'SAFETY' }, [], 'content_filter'],
    [{ unified: 'length', raw: 'MAX_TOKENS' }, [], 'length'],
    [{ unified: 'other', raw: 'weird' }, [], 'other'],
    // Gemini says STOP for a reply that calls functions
    [
      { unified: 'stop', raw: 'STOP' },
      [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{}' }],
      'tool_calls',
    ],
  ] as const)('maps %o to our finish reason', async (finishReason, content, expected) => {
    const model = modelAnswering({ finishReason, content: [{ type: 'text', text: 'x' }, ...content] })
    const completion = await new AiSdkProvider({ model }).complete(ask('hi'), live())
    expect(completion.finishReason).toBe(expected)
  })

  test('treats an `error` finish as a retryable provider failure, never an answer', async () => {
    const model = modelAnswering({ finishReason: { unified: 'error', raw: 'INTERNAL' } })
    const error: unknown = await new AiSdkProvider({ model })
      .complete(ask('hi'), live())
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('INTERNAL') as unknown })
  })

  test('leaves out tool calls the provider ran itself', async () => {
    const model = modelAnswering({
      content: [
        { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: '{}', providerExecuted: true },
        { type: 'text', text: 'found it' },
      ],
    })
    const completion = await new AiSdkProvider({ model }).complete(ask('search'), live())
    expect(completion.message).toEqual({ text: 'found it', toolCalls: [] })
  })
})

describe('cost', () => {
  test('prices a model by the vendor of its model string through genai-prices', async () => {
    const agent = new Agent({
      model: new AiSdkProvider({ model: modelAnswering({}), id: 'google:gemini-2.5-flash' }),
    })
    const result = await agent.run('hi')
    // Google's list price for gemini-2.5-flash: $0.30 per 1M input tokens, $2.50 per 1M output tokens
    expect(result.costUsd).toBeCloseTo((1000 * 0.3 + 100 * 2.5) / 1_000_000, 12)
  })

  test('names a model by its vendor and id when given no id, so it is priced too', async () => {
    const provider = new AiSdkProvider({ model: modelAnswering({}) })
    expect(provider.id).toBe('google:gemini-2.5-flash')
    expect((await new Agent({ model: provider }).run('hi')).costUsd).toBeCloseTo(
      (1000 * 0.3 + 100 * 2.5) / 1_000_000,
      12,
    )
  })

  test('prices an `aisdk:<package>/<model>` model by the model’s name alone', async () => {
    const model = new MockLanguageModelV3({
      provider: 'mistral.chat',
      modelId: 'mistral-small-latest',
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1000, noCache: 1000, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 100, text: 100, reasoning: 0 },
        },
        warnings: [],
      }),
    })
    const provider = new AiSdkProvider({ model, id: 'aisdk:@ai-sdk/mistral/mistral-small-latest' })
    const result = await new Agent({ model: provider }).run('hi')
    // Mistral's list price for Mistral Small: $0.10 per 1M input tokens, $0.30 per 1M output tokens
    expect(result.costUsd).toBeCloseTo((1000 * 0.1 + 100 * 0.3) / 1_000_000, 12)
  })

  test('gives no price (null, never 0) for a vendor the table does not know', async () => {
    const agent = new Agent({
      model: new AiSdkProvider({ model: modelAnswering({}), id: 'acme:gemini-2.5-flash' }),
    })
    const result = await agent.run('hi')
    expect(result.costUsd).toBeNull()
  })
})

describe('requests', () => {
  test('sends tools, the tool choice and structured output in the AI SDK call options', async () => {
    const model = modelAnswering({})
    const provider = new AiSdkProvider({ model, providerOptions: { google: { safetySettings: [] } } })
    await provider.complete(
      ask('hi', {
        system: 'Be terse.',
        tools: [
          { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { name: 'get_weather' },
        output: { name: 'answer', schema: { type: 'object' } },
        settings: { maxTokens: 50, temperature: 0, reasoning: { effort: 'low' } },
      }),
      live(),
    )
    const call = model.doGenerateCalls[0]
    expect(call?.prompt[0]).toEqual({ role: 'system', content: 'Be terse.' })
    expect(call?.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather',
        inputSchema: { type: 'object', properties: {} },
      },
    ])
    expect(call?.toolChoice).toEqual({ type: 'tool', toolName: 'get_weather' })
    expect(call?.responseFormat).toEqual({ type: 'json', schema: { type: 'object' }, name: 'answer' })
    expect(call).toMatchObject({ maxOutputTokens: 50, temperature: 0 })
    expect(call?.providerOptions).toEqual({
      google: { safetySettings: [], thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    })
  })

  test('sends image and file input parts as the AI SDK’s file parts (URLs as URLs, inline data as base64)', async () => {
    const model = modelAnswering({})
    const parts: InputPart[] = [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', image: 'https://example.com/cat.png' },
      { type: 'image', image: 'data:image/jpeg;base64,/9j/4AAQ' },
      { type: 'file', data: 'JVBERi0x', mediaType: 'application/pdf', filename: 'invoice.pdf' },
    ]
    const provider = new AiSdkProvider({ model })
    await provider.complete(
      { messages: [{ role: 'user', content: 'What is in these?', parts }], tools: [] },
      live(),
    )
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'file', data: new URL('https://example.com/cat.png'), mediaType: 'image/*' },
          { type: 'file', data: '/9j/4AAQ', mediaType: 'image/jpeg' },
          { type: 'file', data: 'JVBERi0x', mediaType: 'application/pdf', filename: 'invoice.pdf' },
        ],
      },
    ])
  })

  test('sends reasoning and tool calls back with the metadata the provider gave them (signatures)', async () => {
    let calls = 0
    const model = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      modelId: 'gemini-3-pro',
      doGenerate: async () => ({
        content:
          ++calls === 1
            ? [
                {
                  type: 'reasoning',
                  text: 'Look it up.',
                  providerMetadata: { google: { thoughtSignature: 'r-sig' } },
                },
                {
                  type: 'tool-call',
                  toolCallId: 'c1',
                  toolName: 'get_weather',
                  input: '{"city":"Paris"}',
                  providerMetadata: { google: { thoughtSignature: 'call-sig' } },
                },
              ]
            : [{ type: 'text', text: 'Sunny.' }],
        finishReason: { unified: calls === 1 ? 'tool-calls' : 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      }),
    })
    const getWeather = tool({
      name: 'get_weather',
      description: 'Weather',
      parameters: z.object({ city: z.string() }),
      execute: () => 'sunny',
    })
    const agent = new Agent({ model: new AiSdkProvider({ model }), tools: [getWeather] })
    const result = await agent.run('Weather in Paris?')
    expect(result.output).toBe('Sunny.')
    const assistant = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'assistant')
    expect(assistant?.content).toEqual([
      { type: 'reasoning', text: 'Look it up.', providerOptions: { google: { thoughtSignature: 'r-sig' } } },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'get_weather',
        input: { city: 'Paris' },
        providerOptions: { google: { thoughtSignature: 'call-sig' } },
      },
    ])
    expect(model.doGenerateCalls[1]?.prompt.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'get_weather',
          output: { type: 'text', value: 'sunny' },
        },
      ],
    })
  })
})

describe('errors over HTTP (@ai-sdk/openai against the mock server)', () => {
  test('a 429 is a retryable provider error with the wait the server asked for, from one request', async () => {
    const provider = await overMock([{ status: 429, retryAfterMs: 1500, message: 'slow down' }])
    const error: unknown = await provider.complete(ask('hi'), live()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 1500,
      providerId: 'openai:gpt-test',
    })
    expect((error as Error).message).toContain('openai:gpt-test returned 429')
    expect(server?.journal).toHaveLength(1)
  })

  test('a 400 is not retryable, and the key never reaches the message', async () => {
    const provider = await overMock([{ status: 400, message: 'bad key sk-secret-123 in request' }])
    const error: unknown = await provider.complete(ask('hi'), live()).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, retryable: false })
    expect((error as Error).message).not.toContain('sk-secret-123')
  })

  test('a reset connection is a retryable provider error without a status', async () => {
    const provider = await overMock([{ fault: 'reset' }])
    const error: unknown = await provider.complete(ask('hi'), live()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ retryable: true, status: undefined })
    expect((error as Error).message).toMatch(/^openai:gpt-test (could not be reached|sent a malformed reply)/)
  })

  test('a stream error mid-flight is a retryable provider error', async () => {
    const provider = await overMock([{ fault: 'stream-error' }])
    const events = (async () => {
      for await (const _ of provider.stream(ask('hi'), live()));
    })()
    await expect(events).rejects.toMatchObject({ retryable: true, providerId: 'openai:gpt-test' })
  })

  test('aborting mid-stream rejects with the signal reason and stops reading', async () => {
    const provider = await overMock([{ text: 'one two three four five six seven eight', chunkDelayMs: 300 }])
    const controller = new AbortController()
    const reason = new Error('user stopped')
    const seen: CompletionEvent[] = []
    const started = performance.now()
    const error: unknown = await (async () => {
      for await (const event of provider.stream(ask('hi'), { signal: controller.signal })) {
        seen.push(event)
        controller.abort(reason)
      }
    })().catch((e: unknown) => e)
    expect(error).toBe(reason)
    expect(seen.length).toBeGreaterThan(0)
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test('a reply cut off at the token limit ends the run as truncated, not as an answer', async () => {
    const provider = await overMock([{ text: 'The answer is', finishReason: 'length' }])
    const result = await new Agent({ model: provider }).run('hi')
    expect(result.stopReason).toBe('truncated')
  })

  test('tells the caller what a reply’s rate-limit headers said, for the engine’s pacing', async () => {
    server = await startMockLlmServer({ script: [{ text: 'ok' }], rateLimit: { requestsPerSecond: 5 } })
    const openai = createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'k' })
    const provider = new AiSdkProvider({ model: openai.chat('gpt-test') })
    const readings: RateLimitReading[] = []
    await provider.complete(ask('hi'), { ...live(), onRateLimit: (reading) => readings.push(reading) })
    expect(readings).toHaveLength(1)
    expect(readings[0]?.requests).toMatchObject({ limit: 5 })
  })

  test('usage from the wire keeps its cached tokens', async () => {
    const provider = await overMock([
      { text: 'ok', usage: { inputTokens: 200, outputTokens: 9, cacheReadTokens: 128 } },
    ])
    const completion = await provider.complete(ask('hi'), live())
    expect(completion.usage).toEqual({
      inputTokens: 200,
      outputTokens: 9,
      cacheReadTokens: 128,
      cacheWriteTokens: 0,
    })
  })
})

describe('errors the package throws before any request', () => {
  const throwing = (error: Error) =>
    new AiSdkProvider({
      model: new MockLanguageModelV3({ doGenerate: () => Promise.reject(error) }),
      id: 'acme:model',
    })

  test('a missing key is a ConfigError the user fixes, not a provider failure', async () => {
    const error = new LoadAPIKeyError({
      message:
        'Acme API key is missing. Pass it using the apiKey parameter or the ACME_API_KEY environment variable.',
    })
    await expect(throwing(error).complete(ask('hi'), live())).rejects.toThrow(
      new ConfigError(
        'Cannot call `acme:model`: Acme API key is missing. Pass it using the apiKey parameter or the ACME_API_KEY environment variable.',
      ),
    )
  })

  test('a feature the model lacks is a ConfigError naming it', async () => {
    const error = new UnsupportedFunctionalityError({ functionality: 'tool choice "required"' })
    await expect(throwing(error).complete(ask('hi'), live())).rejects.toBeInstanceOf(ConfigError)
  })

  test('a reply the package could not read is a retryable provider error', async () => {
    const error = new InvalidResponseDataError({ data: {}, message: 'no candidates' })
    await expect(throwing(error).complete(ask('hi'), live())).rejects.toMatchObject({
      retryable: true,
      message: 'acme:model sent a malformed reply: no candidates',
    })
  })
})

describe('misuse', () => {
  test('rejects a value that is not an AI SDK model, naming what to pass', () => {
    expect(() => new AiSdkProvider({ model: { specificationVersion: 'v1' } as never })).toThrow(
      /`model` is a model of AI SDK specification `v1`; this version of agent-evals speaks v2, v3 and v4/,
    )
  })
})
