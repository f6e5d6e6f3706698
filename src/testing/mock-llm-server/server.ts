import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toError } from '../../errors.ts'
import { openAiEmbeddings } from './embeddings-wire.ts'
import { sendHollow, type HollowFault } from './hollow-wire.ts'
import { contentPartProblem } from './content-parts.ts'
import { MockRateLimiter } from './rate-limit.ts'
import { defaultErrorMessage, isErrorReply, isFaultReply, renderReply } from './reply.ts'
import type {
  MockErrorReply,
  MockFaultReply,
  MockLlmServer,
  MockLlmServerOptions,
  MockReply,
  MockRequest,
} from './types.ts'
import {
  errorBody,
  idPrefix,
  malformedFrame,
  replyBody,
  replyFrames,
  requestIdHeader,
  routes,
  streamErrorFrame,
} from './wires.ts'
const anthropicVersions = new Set(['2023-06-01', '2026-10-21'])
const faultText = 'This reply from the mock server will not arrive in one piece.'

/**
 * Starts a mock OpenAI + Anthropic server (chat completions, responses, messages, embeddings) on 127.0.0.1 with an
 * ephemeral port.
 */
export async function startMockLlmServer(options: MockLlmServerOptions = {}): Promise<MockLlmServer> {
  const script = [...(options.script ?? [])]
  const journal: MockRequest[] = []
  const limiter = options.rateLimit && new MockRateLimiter(options.rateLimit)
  let received = 0

  const nextReply = async (request: MockRequest): Promise<MockReply> => {
    if (options.handler) {
      try {
        return await options.handler(request)
      } catch (error) {
        return { status: 400, message: `mock LLM server: the handler threw: ${toError(error).message}` }
      }
    }
    return (
      script.shift() ?? {
        status: 400,
        message: `mock LLM server: no scripted reply left for request #${request.index + 1}`,
      }
    )
  }

  const server = createServer((req, res) => {
    void respond(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: toError(error).message } }))
    })
  })

  async function respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const api = req.method === 'POST' ? routes[path] : undefined
    const text = await readBody(req)
    if (!api) {
      sendJson(res, 404, { error: { message: `mock LLM server: no route for ${req.method ?? ''} ${path}` } })
      return
    }
    const body = parseJson(text)
    const request: MockRequest = {
      index: received++,
      api,
      method: req.method ?? 'POST',
      path,
      headers: headersOf(req),
      body,
      stream: (body as { stream?: unknown } | undefined)?.stream === true,
      receivedAt: Date.now(),
    }
    if (options.journal !== false) journal.push(request)
    const denied = authProblem(request, options.apiKey) ?? contentPartProblem(request)
    // embeddings are answered by the `local` embedding model and use no scripted reply
    if (path === '/v1/embeddings' && !denied) {
      sendJson(res, 200, openAiEmbeddings(body))
      return
    }
    const admitted = denied ? undefined : limiter?.admit(request)
    const reply =
      denied ??
      (admitted && 'reject' in admitted
        ? admitted.reject
        : withHeaders(await nextReply(request), admitted?.headers))
    await sleep(reply.latencyMs ?? options.latencyMs ?? 0, res)
    if (gone(res)) return
    if (isErrorReply(reply)) sendError(res, request, reply)
    else if (isFaultReply(reply)) await sendFault(res, request, reply)
    else if (request.stream)
      await sendStream(res, request, replyFrames(request, renderReply(reply, request, idPrefix(api))), reply)
    else sendJson(res, 200, body200(request, reply), reply.headers)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: url,
    journal,
    get remaining() {
      return script.length
    },
    get rateLimited() {
      return limiter?.rejected ?? 0
    },
    enqueue: (...replies) => {
      script.push(...replies)
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error)
          else resolve()
        })
        server.closeAllConnections()
      }),
  }
}

/** a reply with the rate limiter's headers added (its own win) */
function withHeaders(reply: MockReply, headers: Record<string, string> | undefined): MockReply {
  if (!headers || isFaultReply(reply)) return reply
  return { ...reply, headers: { ...headers, ...reply.headers } }
}

function body200(request: MockRequest, reply: Exclude<MockReply, MockErrorReply | MockFaultReply>): unknown {
  return replyBody(request, renderReply(reply, request, idPrefix(request.api)))
}

async function sendStream(
  res: ServerResponse,
  request: MockRequest,
  list: string[],
  reply: MockReply,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...requestIdHeader(request),
    ...('headers' in reply ? reply.headers : {}),
  })
  for (const frame of list) {
    if (gone(res)) return
    res.write(frame)
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs, res)
  }
  res.end()
}

async function sendFault(res: ServerResponse, request: MockRequest, reply: MockFaultReply): Promise<void> {
  const rendered = renderReply({ text: faultText }, request, idPrefix(request.api))
  if (reply.fault === 'empty-choices' || reply.fault === 'null-message') {
    sendHollow(res, request, reply.fault, body200(request, { text: faultText }))
    return
  }
  if (!request.stream) {
    const full = JSON.stringify(body200(request, { text: faultText }))
    const half = full.slice(0, Math.floor(full.length / 2))
    if (reply.fault === 'stream-error') sendError(res, request, { status: 500 })
    else if (reply.fault === 'malformed-json')
      sendRaw(res, 200, '{"id": "broken", "choices": [{', 'application/json')
    else if (reply.fault === 'truncated-stream') sendRaw(res, 200, half, 'application/json')
    else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) })
      res.write(half, () => res.destroy())
    }
    return
  }
  const all = replyFrames(request, rendered)
  const head = all.slice(0, Math.ceil(all.length / 2))
  const tail: Record<Exclude<MockFaultReply['fault'], HollowFault>, string[]> = {
    reset: [],
    'malformed-json': [malformedFrame(request.api)],
    'truncated-stream': [],
    'stream-error': [streamErrorFrame(request.api)],
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', ...requestIdHeader(request) })
  for (const frame of [...head, ...tail[reply.fault]]) res.write(frame)
  await sleep(reply.chunkDelayMs ?? 0, res)
  if (reply.fault === 'reset') res.write('', () => res.destroy())
  else res.end()
}

function sendError(res: ServerResponse, request: MockRequest, reply: MockErrorReply): void {
  const message = reply.message ?? defaultErrorMessage(reply.status)
  const requestId = `req_mock_${request.index}`
  const body = errorBody(request.api, reply.status, message, requestId)
  const headers: Record<string, string> = { ...requestIdHeader(request), ...reply.headers }
  if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs)
  if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter)
  sendJson(res, reply.status, body, headers)
}

/** 401 when the key is wrong; Anthropic also needs a known `anthropic-version`. */
function authProblem(request: MockRequest, apiKey: string | undefined): MockErrorReply | undefined {
  const bearer = request.headers['authorization']?.replace(/^Bearer /i, '')
  const key = request.api === 'anthropic' ? (request.headers['x-api-key'] ?? bearer) : bearer
  if (apiKey !== undefined && key !== apiKey) return { status: 401, message: 'Invalid API key', latencyMs: 0 }
  if (request.api !== 'anthropic') return undefined
  const version = request.headers['anthropic-version']
  if (version === undefined || !anthropicVersions.has(version)) {
    return {
      status: 400,
      message: `Unknown anthropic-version header: ${version ?? '(missing)'}`,
      latencyMs: 0,
    }
  }
  return undefined
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendRaw(res, status, JSON.stringify(body), 'application/json', headers)
}

function sendRaw(
  res: ServerResponse,
  status: number,
  text: string,
  type: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, ...headers })
  res.end(text)
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

// events rather than `for await`: the async iterator costs more than the rest of reading a small body
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.once('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    req.once('error', reject)
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the request before sending all of it'))
    })
  })
}

/** The client closed the connection before the response was finished. */
function gone(res: ServerResponse): boolean {
  return res.destroyed || !res.socket || res.socket.destroyed
}

/** Waits, but stops early when the client has gone away. */
function sleep(ms: number, res: ServerResponse): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    res.once('close', done)
    function done(): void {
      clearTimeout(timer)
      res.off('close', done)
      resolve()
    }
  })
}
