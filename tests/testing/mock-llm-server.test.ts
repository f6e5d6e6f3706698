import { afterEach, describe, expect, test } from 'vitest'
import { localEmbedding } from '../../src/providers/local-embedding.ts'
import { startMockLlmServer, type MockLlmServer, type MockLlmServerOptions } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: MockLlmServerOptions): Promise<MockLlmServer> {
  server = await startMockLlmServer(options)
  return server
}

const chat = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }
const messages = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

const anthropicHeaders = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }

describe('startMockLlmServer', () => {
  test('listens on a loopback ephemeral port with both base URLs', async () => {
    const { url, openaiBaseURL, anthropicBaseURL } = await start({})
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(openaiBaseURL).toBe(`${url}/v1`)
    expect(anthropicBaseURL).toBe(url)
  })

  test('plays the script in order across both APIs and journals each request with its headers', async () => {
    const mock = await start({ script: [{ text: 'first' }, { text: 'second' }] })
    const a = (await (
      await post(`${mock.openaiBaseURL}/chat/completions`, chat, { authorization: 'Bearer k' })
    ).json()) as {
      choices: { message: { content: string } }[]
    }
    const b = (await (await post(`${mock.url}/v1/messages`, messages, anthropicHeaders)).json()) as {
      content: { text: string }[]
    }
    expect(a.choices[0]?.message.content).toBe('first')
    expect(b.content[0]?.text).toBe('second')
    expect(mock.journal.map((r) => [r.index, r.api, r.path, r.stream])).toEqual([
      [0, 'openai', '/v1/chat/completions', false],
      [1, 'anthropic', '/v1/messages', false],
    ])
    expect(mock.journal[1]?.headers).toMatchObject({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01' })
    expect(mock.journal[0]?.body).toEqual(chat)
  })

  test('answers 400 with a clear message once the script runs out, and takes more replies', async () => {
    const mock = await start({ script: [] })
    const response = await post(`${mock.openaiBaseURL}/chat/completions`, chat)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      error: { message: 'mock LLM server: no scripted reply left for request #1' },
    })
    mock.enqueue({ text: 'late' })
    expect(mock.remaining).toBe(1)
    expect((await post(`${mock.openaiBaseURL}/chat/completions`, chat)).status).toBe(200)
    expect(mock.remaining).toBe(0)
  })

  test('asks a handler for each reply, passing the request', async () => {
    const mock = await start({
      handler: (request) => ({ text: `you sent ${(request.body as { model: string }).model}` }),
    })
    const body = (await (await post(`${mock.openaiBaseURL}/chat/completions`, chat)).json()) as {
      choices: { message: { content: string } }[]
    }
    expect(body.choices[0]?.message.content).toBe('you sent gpt-test')
  })

  test('accepts both Anthropic auth styles and both API versions, and rejects an unknown version', async () => {
    const mock = await start({ apiKey: 'k', script: [{ text: 'a' }, { text: 'b' }] })
    const bearer = { authorization: 'Bearer k', 'anthropic-version': '2026-10-21' }
    expect((await post(`${mock.url}/v1/messages`, messages, anthropicHeaders)).status).toBe(200)
    expect((await post(`${mock.url}/v1/messages`, messages, bearer)).status).toBe(200)
    expect((await post(`${mock.url}/v1/messages`, messages, { 'x-api-key': 'k' })).status).toBe(400)
    const wrong = await post(`${mock.url}/v1/messages`, messages, {
      ...anthropicHeaders,
      'x-api-key': 'nope',
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
  })

  test('sends errors with retry headers in each API’s error format', async () => {
    const mock = await start({ script: [{ status: 429, retryAfterMs: 1, retryAfter: 2 }, { status: 529 }] })
    const openai = await post(`${mock.openaiBaseURL}/chat/completions`, chat)
    expect(openai.status).toBe(429)
    expect(openai.headers.get('retry-after-ms')).toBe('1')
    expect(openai.headers.get('retry-after')).toBe('2')
    expect(openai.headers.get('x-request-id')).toBe('req_mock_0')
    expect(await openai.json()).toMatchObject({ error: { code: 'rate_limit_exceeded', param: null } })
    const anthropic = await post(`${mock.url}/v1/messages`, messages, anthropicHeaders)
    expect(anthropic.status).toBe(529)
    expect(await anthropic.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_mock_1',
    })
  })

  test('streams OpenAI chunks ending with [DONE], with the usage chunk only when asked', async () => {
    const mock = await start({ script: [{ text: 'a b' }, { text: 'a b' }] })
    const plain = await (
      await post(`${mock.openaiBaseURL}/chat/completions`, { ...chat, stream: true })
    ).text()
    const withUsage = await (
      await post(`${mock.openaiBaseURL}/chat/completions`, {
        ...chat,
        stream: true,
        stream_options: { include_usage: true },
      })
    ).text()
    expect(plain.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(plain).not.toContain('"usage"')
    expect(withUsage).toContain('"choices":[],"usage":{"prompt_tokens"')
    expect(
      plain
        .split('\n\n')
        .filter(Boolean)
        .every((frame) => frame.startsWith('data: ')),
    ).toBe(true)
  })

  test('streams Anthropic frames that always name their event', async () => {
    const mock = await start({ script: [{ text: 'a b', toolCalls: [{ name: 'f', args: { x: 1 } }] }] })
    const text = await (
      await post(`${mock.url}/v1/messages`, { ...messages, stream: true }, anthropicHeaders)
    ).text()
    const frames = text.split('\n\n').filter(Boolean)
    expect(frames.every((frame) => /^event: \w+\ndata: \{/.test(frame))).toBe(true)
    expect(frames.map((frame) => /^event: (\w+)/.exec(frame)?.[1])).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
  })

  test('waits the added latency before answering', async () => {
    const mock = await start({ latencyMs: 60, script: [{ text: 'a' }] })
    const started = performance.now()
    await post(`${mock.openaiBaseURL}/chat/completions`, chat)
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
  })

  test('answers 404 for unknown routes without using the script', async () => {
    const mock = await start({ script: [{ text: 'a' }] })
    expect((await post(`${mock.url}/v1/completions`, {})).status).toBe(404)
    expect(mock.remaining).toBe(1)
    expect(mock.journal).toHaveLength(0)
  })

  test('answers embeddings with the `local` embedding model, without using the script', async () => {
    const mock = await start({ script: [{ text: 'a' }] })
    const response = await post(`${mock.openaiBaseURL}/embeddings`, { model: 'm', input: ['hello world'] })
    const body = (await response.json()) as { data: { index: number; embedding: number[] }[] }
    expect(body.data).toEqual([{ object: 'embedding', index: 0, embedding: localEmbedding('hello world') }])
    expect(mock.remaining).toBe(1)
  })

  test('resets the connection mid-response', async () => {
    const mock = await start({ script: [{ fault: 'reset' }] })
    const response = await post(`${mock.openaiBaseURL}/chat/completions`, chat)
    await expect(response.text()).rejects.toThrow()
  })
})
