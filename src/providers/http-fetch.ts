import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable, Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/** Options of `createHttpFetch()`. */
export interface HttpFetchOptions {
  /** open connections per host; calls beyond it wait for a free one @default 256 */
  maxSockets?: number
  /** how long an idle connection stays open for reuse (lowered by a server's `keep-alive: timeout=` hint) @default 4000 */
  idleTimeoutMs?: number
}

const proxyVariables = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const
const nullBodyStatuses = new Set([101, 103, 204, 205, 304])

/**
 * A `fetch` over `node:http` / `node:https` with keep-alive connections, for the SDKs' `fetch` option: it costs a
 * fraction of the CPU of Node's built-in fetch per call. Event streams arrive as a `ReadableStream`, every other body
 * is read in full before the promise resolves. Falls back to the global `fetch` for what it does not cover: a proxy
 * in `HTTP(S)_PROXY` (read at the first request), an undici `dispatcher`, `Request` objects, and bodies other than
 * strings and bytes. Redirects are not followed: the response carries the 3xx status.
 */
export function createHttpFetch(options: HttpFetchOptions = {}): typeof fetch {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 256,
    // on an idle socket this closes it; on a busy one the request ignores it
    timeout: options.idleTimeoutMs ?? 4000,
  }
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) }
  // read on the first request rather than per request: environment lookups cost more than the rest of the checks
  let proxied: boolean | undefined

  return function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const body = init.body ?? null
    proxied ??= proxyVariables.some((name) => process.env[name])
    if (
      proxied ||
      input instanceof Request ||
      (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) ||
      'dispatcher' in init
    ) {
      return fetch(input, init)
    }
    const url = typeof input === 'string' ? new URL(input) : input
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init)
    return send(url, init, body, url.protocol === 'https:' ? agents.https : agents.http)
  }
}

/** The `fetch` the providers use unless given one: shared, so every provider reuses the same connections. */
export const httpFetch: typeof fetch = createHttpFetch()

function send(
  url: URL,
  init: RequestInit,
  body: string | Uint8Array | null,
  agent: HttpAgent,
): Promise<Response> {
  const signal = init.signal ?? undefined
  const method = (init.method ?? 'GET').toUpperCase()
  const headers = requestHeaders(init.headers, body)

  return new Promise<Response>((resolve, reject) => {
    let settled = false
    const cleanUp = (): void => {
      signal?.removeEventListener('abort', onAbort)
    }
    const onAbort = (): void => {
      request.destroy()
      fail(undefined)
    }
    // after an abort every error is the signal's reason, as with the built-in fetch
    const failure = (error: unknown): unknown =>
      signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: error })
    const fail = (error: unknown): void => {
      cleanUp()
      if (settled) return
      settled = true
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- fetch rejects with the signal's reason, whatever it is
      reject(failure(error))
    }
    const succeed = (response: Response): void => {
      settled = true
      resolve(withUrl(response, url))
    }
    if (signal?.aborted) {
      fail(undefined)
      return
    }
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers, agent })
    signal?.addEventListener('abort', onAbort, { once: true })
    request.on('error', fail)
    request.once('response', (incoming) => {
      const head = responseInit(incoming)
      const decoded = decode(incoming, method)
      incoming.on('error', (error) => {
        if (decoded !== incoming) decoded.destroy(error)
        fail(error)
      })
      decoded.on('error', fail)
      if (method === 'HEAD' || nullBodyStatuses.has(head.status)) {
        cleanUp()
        incoming.resume()
        succeed(new Response(null, head))
      } else if (isEventStream(incoming.headers['content-type'])) {
        const stream = toWebStream(decoded, {
          failure,
          done: cleanUp,
          cancel: () => request.destroy(),
        })
        succeed(new Response(stream, head))
      } else {
        const chunks: Buffer[] = []
        decoded.on('data', (chunk: Buffer) => chunks.push(chunk))
        decoded.once('end', () => {
          cleanUp()
          if (!settled) succeed(new Response(Buffer.concat(chunks), head))
        })
        decoded.once('close', () => {
          if (!settled) fail(new Error('the connection closed before the body was complete'))
        })
      }
    })
    request.end(body ?? undefined)
  })
}

function requestHeaders(
  init: RequestInit['headers'],
  body: string | Uint8Array | null,
): Record<string, string> {
  const headers: Record<string, string> = {}
  ;(init instanceof Headers ? init : new Headers(init)).forEach((value, name) => {
    headers[name] = value
  })
  headers['accept'] ??= '*/*'
  headers['accept-encoding'] ??= 'gzip, deflate, br'
  if (body !== null) {
    if (typeof body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8'
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)
  }
  return headers
}

function responseInit(incoming: IncomingMessage): {
  status: number
  statusText: string
  headers: [string, string][]
} {
  const headers: [string, string][] = []
  const raw = incoming.rawHeaders
  for (let i = 0; i < raw.length; i += 2)
    headers.push([(raw[i] as string).toLowerCase(), raw[i + 1] as string])
  return { status: incoming.statusCode ?? 200, statusText: incoming.statusMessage ?? '', headers }
}

/** The body with its `content-encoding` undone, as the built-in fetch does. */
function decode(incoming: IncomingMessage, method: string): Readable {
  const encoding = incoming.headers['content-encoding']
  if (!encoding || method === 'HEAD') return incoming
  let stream: Readable = incoming
  for (const coding of encoding.toLowerCase().split(',').reverse()) {
    const decoder = decoderFor(coding.trim())
    if (decoder) stream = stream.pipe(decoder)
  }
  return stream
}

function decoderFor(coding: string): Transform | undefined {
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip()
  if (coding === 'deflate') return createInflate()
  if (coding === 'br') return createBrotliDecompress()
  return undefined
}

function toWebStream(
  source: Readable,
  hooks: { failure: (error: unknown) => unknown; done: () => void; cancel: () => void },
): ReadableStream<Uint8Array> {
  let finished = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (error?: unknown): void => {
        if (finished) return
        finished = true
        hooks.done()
        if (error === undefined) controller.close()
        else controller.error(hooks.failure(error))
      }
      source.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        if ((controller.desiredSize ?? 1) <= 0) source.pause()
      })
      source.once('end', () => {
        finish()
      })
      source.on('error', (error) => {
        finish(error)
      })
      source.once('close', () => {
        if (!finished) finish(new Error('the connection closed before the stream was complete'))
      })
    },
    pull() {
      source.resume()
    },
    cancel() {
      finished = true
      hooks.done()
      hooks.cancel()
    },
  })
}

function isEventStream(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream'
}

/** A constructed `Response` has an empty `url`; the SDKs log it. */
function withUrl(response: Response, url: URL): Response {
  Object.defineProperty(response, 'url', { value: url.href })
  return response
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}
