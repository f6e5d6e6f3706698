import OpenAI from 'openai'
import { afterEach, describe, expect, test } from 'vitest'
import { Agent } from '../../src/engine/agent.ts'
import { ConfigError } from '../../src/errors.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { toAnthropicParams } from '../../src/providers/anthropic-request.ts'
import { toResponsesParams } from '../../src/providers/openai-responses-request.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { OpenAiResponsesProvider } from '../../src/providers/openai-responses.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import type { InputPart } from '../../src/types.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** a 1×1 transparent PNG */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')

const parts: InputPart[] = [
  { type: 'text', text: 'What is in these?' },
  { type: 'image', image: 'https://example.com/cat.jpg' },
  { type: 'image', image: png, mediaType: 'image/png' },
  { type: 'file', data: pdf, mediaType: 'application/pdf', filename: 'report.pdf' },
]

/** Each API's wire form of `parts`, as its docs give it. */
const apis: [
  string,
  (server: MockLlmServer) => Provider,
  (body: Record<string, unknown>) => unknown,
  unknown,
][] = [
  [
    'openai',
    (s) => new OpenAiProvider({ model: 'gpt-test', apiKey: 'k', baseURL: s.openaiBaseURL }),
    (body) => (body.messages as { content: unknown }[])[0]?.content,
    [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'report.pdf' } },
    ],
  ],
  [
    'openai-responses',
    (s) => new OpenAiResponsesProvider({ model: 'gpt-test', apiKey: 'k', baseURL: s.openaiBaseURL }),
    (body) => (body.input as { content: unknown }[])[0]?.content,
    [
      { type: 'input_text', text: 'What is in these?' },
      { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
      { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
      { type: 'input_file', file_data: `data:application/pdf;base64,${pdf}`, filename: 'report.pdf' },
    ],
  ],
  [
    'anthropic',
    (s) => new AnthropicProvider({ model: 'claude-test', apiKey: 'k', baseURL: s.anthropicBaseURL }),
    (body) => (body.messages as { content: unknown }[])[0]?.content,
    [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
    ],
  ],
]

describe.each(apis)('image and file parts over the real %s SDK', (_api, make, contentOf, expected) => {
  test('are sent in the API’s own shape, as a list of parts and as a user turn', async () => {
    server = await startMockLlmServer({ script: [{ text: 'A cat and a report.' }, { text: 'Still a cat.' }] })
    const agent = new Agent({ model: make(server) })

    const direct = await agent.run(parts)
    const turns = await agent.run([{ role: 'user', content: parts }])

    expect(direct.stopReason).toBe('final')
    expect(turns.output).toBe('Still a cat.')
    for (const request of server.journal)
      expect(contentOf(request.body as Record<string, unknown>)).toEqual(expected)
    expect(direct.messages[0]).toEqual({ role: 'user', content: 'What is in these?', parts })
  })

  test('are sent when streaming too', async () => {
    server = await startMockLlmServer({ script: [{ text: 'A cat.' }] })
    const agent = new Agent({ model: make(server) })

    let result
    for await (const event of agent.stream(parts)) if (event.type === 'result') result = event.result

    expect(result?.output).toBe('A cat.')
    expect(server.journal[0]?.stream).toBe(true)
    expect(contentOf(server.journal[0]?.body as Record<string, unknown>)).toEqual(expected)
  })
})

describe('image and file parts elsewhere', () => {
  test('the local model reads the text of a turn of parts (it crashed with `text.toLowerCase is not a function`)', async () => {
    const agent = new Agent({ model: 'local' })

    const result = await agent.run([{ role: 'user', content: parts }])

    expect(result.stopReason).toBe('final')
    expect(result.output).toContain('What is in these?')
  })

  test('a malformed part is a ConfigError naming the part', async () => {
    const agent = new Agent({ model: 'local' })
    const video = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'video', url: 'x' },
        ],
      },
    ]
    const noMediaType = [{ type: 'file', data: pdf }]

    await expect(agent.run(video as never)).rejects.toThrow(ConfigError)
    await expect(agent.run(video as never)).rejects.toThrow(
      'Run input: turn 1, part 2: `type` must be text, image or file, got "video".',
    )
    await expect(agent.run(noMediaType as never)).rejects.toThrow(
      'Run input, part 1: `mediaType` is required for a file, e.g. `application/pdf`.',
    )
  })

  test('a part an API cannot take is a clear error, not a crash', async () => {
    server = await startMockLlmServer({ script: [] })
    const agent = new Agent({
      model: new OpenAiProvider({ model: 'gpt-test', apiKey: 'k', baseURL: server.openaiBaseURL }),
    })

    const result = await agent.run([
      { type: 'file', data: 'https://example.com/a.pdf', mediaType: 'application/pdf' },
    ])

    expect(result.stopReason).toBe('error')
    expect(result.error).toMatch(
      /OpenAI Chat Completions does not take files by URL: give the file as base64/,
    )
    expect(server.journal).toHaveLength(0)
    // misuse, which no retry mends
    expect(result.trace.filter((step) => step.type === 'retry')).toEqual([])
  })

  test('the mock server rejects a part in another API’s shape, as the real API does', async () => {
    server = await startMockLlmServer({ script: [{ text: 'never sent' }] })
    const client = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 })

    const sent = client.chat.completions.create({
      model: 'gpt-test',
      messages: [
        { role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' } as never] },
      ],
    })

    await expect(sent).rejects.toThrow(
      /400 Invalid content part at messages\[0\]\.content\[0\]: unknown type "input_image"/,
    )
  })
})

describe('file parts by URL and as text', () => {
  const request = (part: InputPart) => ({
    messages: [{ role: 'user' as const, content: '', parts: [part] }],
    tools: [],
  })
  const url = { type: 'file', data: 'https://example.com/a.pdf', mediaType: 'application/pdf' } as const
  const text = {
    type: 'file',
    data: Buffer.from('hello').toString('base64'),
    mediaType: 'text/plain',
  } as const

  test('the Responses API takes a file URL as `file_url`', () => {
    const params = toResponsesParams(request(url), 'gpt-test')
    expect((params.input as { content: unknown }[])[0]?.content).toEqual([
      { type: 'input_file', file_url: 'https://example.com/a.pdf' },
    ])
  })

  test('Anthropic takes a URL as a url document, and plain text as a text document', () => {
    const contentOf = (part: InputPart) =>
      toAnthropicParams(request(part), 'claude-test').messages[0]?.content
    expect(contentOf(url)).toEqual([
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
    ])
    expect(contentOf(text)).toEqual([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
    ])
    expect(() => contentOf({ type: 'image', image: png, mediaType: 'image/bmp' })).toThrow(
      'Anthropic does not take images of type image/bmp: send image/jpeg, image/png, image/gif, image/webp.',
    )
  })
})
