import OpenAI from 'openai'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { afterEach, describe, expect, test } from 'vitest'
import { startMockLlmServer, type MockLlmServer, type MockLlmServerOptions } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function client(options: MockLlmServerOptions): Promise<{ mock: MockLlmServer; openai: OpenAI }> {
  server = await startMockLlmServer(options)
  return { mock: server, openai: new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 }) }
}

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
}

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

describe('the mock server speaks the OpenAI Responses API', () => {
  test('answers responses.create with a function call, echoing the request and counting cached tokens', async () => {
    const { mock, openai } = await client({
      script: [
        {
          toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }],
          usage: { inputTokens: 120, outputTokens: 18, cacheReadTokens: 64 },
        },
      ],
    })
    const response = await openai.responses.create({
      model: 'gpt-test',
      instructions: 'You are terse.',
      input: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
      tool_choice: 'required',
    })
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-test',
      instructions: 'You are terse.',
      tool_choice: 'required',
      tools: [weatherTool],
      output: [
        {
          type: 'function_call',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          status: 'completed',
        },
      ],
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 64 },
        output_tokens: 18,
        total_tokens: 138,
      },
    })
    expect(response.output_text).toBe('')
    expect(mock.journal[0]).toMatchObject({ api: 'openai-responses', path: '/v1/responses', stream: false })
  })

  test('puts the reasoning summary before the message, and the SDK computes output_text', async () => {
    const { openai } = await client({ script: [{ reasoning: 'The user greets me.', text: 'Hello there.' }] })
    const response = await openai.responses.create({ model: 'gpt-test', input: 'hi' })
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message'])
    expect(response.output[0]).toMatchObject({
      summary: [{ type: 'summary_text', text: 'The user greets me.' }],
    })
    expect(response.output_text).toBe('Hello there.')
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0)
  })

  test('streams the events in the real order, numbered, with usage on response.completed', async () => {
    const { mock, openai } = await client({
      script: [
        {
          reasoning: 'Look it up.',
          text: 'Checking now.',
          toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }],
          usage: { inputTokens: 50, outputTokens: 20, cacheReadTokens: 32 },
        },
        { text: 'raw' },
      ],
    })
    const events = await collect(
      await openai.responses.create({
        model: 'gpt-test',
        input: 'Weather?',
        tools: [weatherTool],
        stream: true,
      }),
    )
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index))
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    const text = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []))
    expect(text.join('')).toBe('Checking now.')
    const args = events.flatMap((event) =>
      event.type === 'response.function_call_arguments.delta' ? [event.delta] : [],
    )
    expect(args.join('')).toBe('{"city":"Paris"}')
    const created = events[0]
    expect(created?.type === 'response.created' && created.response).toMatchObject({
      status: 'in_progress',
      output: [],
    })
    const completed = events.at(-1)
    expect(completed?.type === 'response.completed' && completed.response).toMatchObject({
      status: 'completed',
      output: [{ type: 'reasoning' }, { type: 'message' }, { type: 'function_call', call_id: 'call_0_0' }],
      usage: { input_tokens: 50, input_tokens_details: { cached_tokens: 32 }, output_tokens: 20 },
    })
    expect(mock.journal[0]).toMatchObject({ api: 'openai-responses', stream: true })
    const raw = await (
      await fetch(`${mock.openaiBaseURL}/responses`, {
        method: 'POST',
        body: '{"model":"m","input":"x","stream":true}',
      })
    ).text()
    expect(raw).toMatch(/^event: response\.created\ndata: \{"type":"response\.created","sequence_number":0,/)
  })

  test('the SDK’s own stream accumulator follows the deltas and finishes with the whole response', async () => {
    const { openai } = await client({
      script: [
        { text: 'It is sunny.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }] },
      ],
    })
    const stream = openai.responses.stream({ model: 'gpt-test', input: 'Weather?', tools: [weatherTool] })
    const textSnapshots: string[] = []
    const argumentSnapshots: string[] = []
    stream.on('response.output_text.delta', (event) => textSnapshots.push(event.snapshot))
    stream.on('response.function_call_arguments.delta', (event) => argumentSnapshots.push(event.snapshot))
    const final = await stream.finalResponse()
    expect(textSnapshots).toEqual(['It ', 'It is ', 'It is sunny.'])
    expect(argumentSnapshots).toEqual(['{"city":', '{"city":"Paris"}'])
    expect(final.output_text).toBe('It is sunny.')
    expect(final.output.at(-1)).toMatchObject({
      type: 'function_call',
      call_id: 'c1',
      arguments: '{"city":"Paris"}',
    })
  })

  test('ends a reply cut at the token limit as incomplete, streamed or not', async () => {
    const { openai } = await client({
      script: [
        { text: 'Half an', finishReason: 'length' },
        { text: 'Half an', finishReason: 'length' },
      ],
    })
    const response = await openai.responses.create({ model: 'gpt-test', input: 'x' })
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    })
    const events = await collect(
      await openai.responses.create({ model: 'gpt-test', input: 'x', stream: true }),
    )
    expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete' } })
  })

  test('sends HTTP errors in OpenAI’s format and a mid-stream failure as an error event', async () => {
    const { openai } = await client({ script: [{ status: 429, retryAfterMs: 1 }, { fault: 'stream-error' }] })
    await expect(openai.responses.create({ model: 'gpt-test', input: 'x' })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      requestID: 'req_mock_0',
    })
    const events = await collect(
      await openai.responses.create({ model: 'gpt-test', input: 'x', stream: true }),
    )
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      code: 'server_error',
      message: 'The server had an error mid-stream',
    })
  })

  test('a hollow reply (HTTP 200, no message) has no output items, or a message item without content', async () => {
    const { mock, openai } = await client({
      script: [{ fault: 'empty-choices' }, { fault: 'null-message' }, { fault: 'empty-choices' }],
    })
    const empty = await openai.responses.create({ model: 'gpt-test', input: 'x' })
    expect(empty.output).toEqual([])
    // the SDK itself throws on a message item without content: read the body as it came
    const reply = await fetch(`${mock.openaiBaseURL}/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', input: 'x' }),
    })
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({
      object: 'response',
      output: [{ type: 'message', content: null }],
    })
    const events = await collect(
      await openai.responses.create({ model: 'gpt-test', input: 'x', stream: true }),
    )
    expect(events).toMatchObject([{ type: 'response.completed', response: { output: [] } }])
  })

  test('estimates input tokens from `input` when no usage is scripted', async () => {
    const { openai } = await client({ script: [{ text: 'ok' }] })
    const response = await openai.responses.create({ model: 'gpt-test', input: 'x'.repeat(400) })
    expect(response.usage?.input_tokens).toBeGreaterThanOrEqual(100)
  })
})
