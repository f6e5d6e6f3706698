import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ProviderError } from '../../src/errors.ts'
import { createHttpFetch } from '../../src/providers/http-fetch.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'

interface TestServer {
  url: string
  /** TCP connections the server accepted */
  connections: () => number
  close: () => Promise<void>
}

const servers: TestServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  let connections = 0
  const server = createServer(handler)
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const started: TestServer = {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      }),
  }
  servers.push(started)
  return started
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

const text = (chunk: Uint8Array | undefined): string => new TextDecoder().decode(chunk)

describe('createHttpFetch', () => {
  test('sends a JSON request and returns the JSON response with status and headers', async () => {
    const server = await serve((req, res) => {
      void readBody(req).then((body) => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_1' })
        res.end(
          JSON.stringify({
            method: req.method,
            type: req.headers['content-type'],
            body: JSON.parse(body) as unknown,
          }),
        )
      })
    })
    const response = await createHttpFetch()(`${server.url}/v1/things?x=1`, {
      method: 'post',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ city: 'Paris' }),
    })

    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(201)
    expect(response.ok).toBe(true)
    expect(response.url).toBe(`${server.url}/v1/things?x=1`)
    expect(response.headers.get('x-request-id')).toBe('req_1')
    expect(await response.json()).toEqual({
      method: 'POST',
      type: 'application/json',
      body: { city: 'Paris' },
    })
  })

  test('sends a byte body with its length', async () => {
    const server = await serve((req, res) => {
      void readBody(req).then((body) => {
        res.end(`${req.headers['content-length'] ?? ''}:${body}`)
      })
    })
    const response = await createHttpFetch()(server.url, {
      method: 'PUT',
      body: new TextEncoder().encode('héllo'),
    })

    expect(await response.text()).toBe('6:héllo')
  })

  test('hands an event stream over as it arrives, before the server has finished', async () => {
    const more = deferred()
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
      res.write('data: 1\n\n')
      void more.promise.then(() => res.end('data: 2\n\n'))
    })
    const response = await createHttpFetch()(server.url)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()

    expect(text((await reader.read()).value)).toBe('data: 1\n\n')
    more.resolve()
    expect(text((await reader.read()).value)).toBe('data: 2\n\n')
    expect((await reader.read()).done).toBe(true)
  })

  test.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ])('decodes a %s-encoded body', async (encoding, compress) => {
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding })
      res.end(compress(JSON.stringify({ accepted: req.headers['accept-encoding'] })))
    })
    const response = await createHttpFetch()(server.url)

    expect(await response.json()).toEqual({ accepted: 'gzip, deflate, br' })
  })

  test('decodes a gzip-encoded event stream', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' })
      res.end(gzipSync('data: 1\n\ndata: 2\n\n'))
    })
    const response = await createHttpFetch()(server.url)

    expect(await response.text()).toBe('data: 1\n\ndata: 2\n\n')
  })

  test('rejects with the signal reason when aborted before the body is complete', async () => {
    const halfSent = deferred()
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"partial": ', () => {
        halfSent.resolve()
      })
    })
    const controller = new AbortController()
    const response = createHttpFetch()(server.url, { signal: controller.signal })
    await halfSent.promise
    const reason = new Error('stop')
    controller.abort(reason)

    await expect(response).rejects.toBe(reason)
  })

  test('rejects with an AbortError the SDKs recognize when aborted without a reason', async () => {
    const server = await serve(() => {
      // never answers
    })
    const controller = new AbortController()
    const response = createHttpFetch()(server.url, { signal: controller.signal })
    setTimeout(() => {
      controller.abort()
    }, 20)

    await expect(response).rejects.toMatchObject({ name: 'AbortError' })
  })

  test('rejects at once when the signal is already aborted, without connecting', async () => {
    const server = await serve((_req, res) => res.end())
    const reason = new Error('already')

    await expect(createHttpFetch()(server.url, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    expect(server.connections()).toBe(0)
  })

  test('errors an event stream with the signal reason when aborted mid-stream', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: 1\n\n')
    })
    const controller = new AbortController()
    const response = await createHttpFetch()(server.url, { signal: controller.signal })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    const reason = new Error('stop')
    controller.abort(reason)

    await expect(reader.read()).rejects.toBe(reason)
  })

  test('rejects with a TypeError carrying the socket error when the connection resets', async () => {
    const server = await serve((req) => req.socket.destroy())

    const error = await createHttpFetch()(server.url).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNRESET' } })
  })

  test('rejects when the connection resets halfway through the body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"partial": ', () => res.destroy())
    })

    await expect(createHttpFetch()(server.url)).rejects.toThrow(TypeError)
  })

  test('errors an event stream that resets halfway through', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: 1\n\n', () => res.destroy())
    })
    const response = await createHttpFetch()(server.url)

    await expect(response.text()).rejects.toThrow(TypeError)
  })

  test('a reset is a retryable connection error for the SDK', async () => {
    const server = await serve((req) => req.socket.destroy())
    const provider = new OpenAiProvider({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      fetch: createHttpFetch(),
    })
    const error = await provider
      .complete(
        { messages: [{ role: 'user', content: 'hi' }], tools: [] },
        { signal: new AbortController().signal },
      )
      .catch((reason: unknown) => reason)

    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ retryable: true })
    expect((error as Error).message).toMatch(/^Could not connect to OpenAI for openai:gpt-test/)
  })

  test('reuses kept-alive connections', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
    const httpFetch = createHttpFetch()
    for (let i = 0; i < 5; i++) await (await httpFetch(server.url)).json()
    expect(server.connections()).toBe(1)

    await Promise.all(Array.from({ length: 3 }, async () => (await httpFetch(server.url)).json()))
    for (let i = 0; i < 5; i++) await (await httpFetch(server.url)).json()
    expect(server.connections()).toBe(3)
  })

  test('waits for a response slower than the idle timeout, and closes idle connections after it', async () => {
    const server = await serve((_req, res) => {
      setTimeout(() => res.end('late'), 150)
    })
    const httpFetch = createHttpFetch({ idleTimeoutMs: 50 })

    expect(await (await httpFetch(server.url)).text()).toBe('late')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(await (await httpFetch(server.url)).text()).toBe('late')
    expect(server.connections()).toBe(2)
  })

  test('returns a 3xx as it is, without following it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(307, { location: '/elsewhere' })
      res.end()
    })
    const response = await createHttpFetch()(server.url, { method: 'POST', body: '{}' })

    expect(response.status).toBe(307)
    expect(response.headers.get('location')).toBe('/elsewhere')
  })

  test('falls back to the global fetch when a proxy is configured', async () => {
    const global = vi.fn(() => Promise.resolve(new Response('via global fetch')))
    vi.stubGlobal('fetch', global)
    vi.stubEnv('HTTPS_PROXY', 'http://proxy.invalid:3128')
    const response = await createHttpFetch()('https://api.example.invalid/v1/models')

    expect(await response.text()).toBe('via global fetch')
    expect(global).toHaveBeenCalledOnce()
  })
})
