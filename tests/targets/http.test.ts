import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { httpTarget } from '../../src/targets/http.ts'
import type { TargetContext } from '../../src/targets/target.ts'

const context: TargetContext = {
  signal: new AbortController().signal,
  caseId: 'c1',
  trial: 0,
  vars: { lang: 'fr' },
}
const seen: {
  method?: string | undefined
  url?: string | undefined
  headers: IncomingMessage['headers']
  body: string
}[] = []
let server: Server
let base = ''

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body })
      if (request.url === '/fail') {
        response.writeHead(503).end('overloaded')
        return
      }
      if (request.url === '/hang') return
      response.setHeader('content-type', 'application/json')
      const input = body ? (JSON.parse(body) as { q?: string; input?: string }) : {}
      response.end(
        JSON.stringify({ data: { answer: `you said ${input.q ?? input.input ?? ''}`, meta: { n: 1 } } }),
      )
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('httpTarget', () => {
  test('posts the rendered body template with headers and picks the output by dotted path', async () => {
    const target = httpTarget({
      url: `${base}/ask`,
      headers: { 'x-case': '{{caseId}}-{{lang}}' },
      body: '{"q": {{json input}}}', // sent as '{"q": "…" }'
      output: 'data.answer',
    })
    const transcript = await target.run('a "quoted" word', context)
    expect(transcript.output).toBe('you said a "quoted" word')
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"q": "a \\"quoted\\" word" }' })
    expect(seen.at(-1)?.headers['x-case']).toBe('c1-fr')
    expect(seen.at(-1)?.headers['content-type']).toBe('application/json')
  })

  test('sends {"input": …} by default and keeps an object output as parsed', async () => {
    const transcript = await httpTarget({ url: `${base}/ask`, output: 'data.meta' }).run('hi', context)
    expect(seen.at(-1)?.body).toBe('{"input":"hi"}')
    expect(transcript.output).toBe('{"n":1}')
    expect(transcript.parsed).toEqual({ n: 1 })
  })

  test('renders the string values of an object body and sends it as JSON', async () => {
    await httpTarget({
      url: `${base}/ask`,
      body: { q: '{{input}} in {{lang}}', n: 2, tags: ['{{caseId}}'] },
    }).run('say "hi"', context)
    expect(JSON.parse(seen.at(-1)?.body ?? '')).toEqual({ q: 'say "hi" in fr', n: 2, tags: ['c1'] })
  })

  test('uses the whole body without an output path', async () => {
    const transcript = await httpTarget({ url: `${base}/ask`, method: 'get' }).run('hi', context)
    expect(seen.at(-1)).toMatchObject({ method: 'GET', body: '' })
    expect(transcript.output).toBe('{"data":{"answer":"you said ","meta":{"n":1}}}')
  })

  test('rejects a non-2xx answer with the status and the start of the body', async () => {
    await expect(httpTarget({ url: `${base}/fail` }).run('hi', context)).rejects.toThrow(
      `POST ${base}/fail answered 503 Service Unavailable: overloaded`,
    )
  })

  test('names the missing output path and the keys it found', async () => {
    await expect(httpTarget({ url: `${base}/ask`, output: 'data.text' }).run('hi', context)).rejects.toThrow(
      'the response has no `data.text` (stopped at `text`; found: answer, meta)',
    )
  })

  test('fails on a template variable that does not exist instead of sending an empty string', async () => {
    await expect(
      httpTarget({ url: `${base}/ask`, body: '{"q": "{{missing}}"}' }).run('hi', context),
    ).rejects.toThrow('"missing" not defined')
  })

  test('gives up after its own timeout', async () => {
    await expect(httpTarget({ url: `${base}/hang`, timeoutMs: 100 }).run('hi', context)).rejects.toThrow()
  })
})
