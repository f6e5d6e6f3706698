import { jsonOrText } from '../../util/json-or-text.ts'
import type { CallScope } from '../../engine/call-scope.ts'
import type { RateLimiters } from '../../engine/rate-limit.ts'
import type { Cassette, CassetteMode, HttpCassetteEntry, ReplayMissError } from '../cassette.ts'
import { canonicalHttpRequest, requestLine } from './canonical-http.ts'
import { isEventStream, recordingStream, replayedStream } from './event-stream.ts'
import { providerKeyOf } from './model-request.ts'
import { pacedSend } from './paced-send.ts'

/** Where one intercepted model request goes: its case, the case's cassette, the run's limiters. */
export interface ExchangeRoute {
  /** the (case, trial) that made it; undefined outside any case */
  scope: CallScope | undefined
  cassette: Cassette | undefined
  mode: CassetteMode | undefined
  limiters: RateLimiters | undefined
  /** a `fetch` the interception does not see */
  live: typeof fetch
  /** told of a replay miss, so the case errors even if the agent swallows the error reply */
  onMiss: (scope: CallScope, error: ReplayMissError) => void
}

type ResponseBody = ConstructorParameters<typeof Response>[0]

/** request headers a forwarded request must not carry over (the client sets its own) */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'expect',
  'upgrade',
  'accept-encoding',
  'x-interceptors-internal-request-id',
])

/** Answers a model request: from the cassette, or live (paced, and recorded when recording). */
export async function exchange(request: Request, route: ExchangeRoute): Promise<Response> {
  const url = new URL(request.url)
  const body = new Uint8Array(await request.arrayBuffer())
  const canonical = canonicalHttpRequest(request.method, url, new TextDecoder().decode(body))
  // the cassette code loads only for runs that record or replay: pacing alone never needs it
  const lookup =
    route.cassette && route.scope
      ? (await import('./http-cassette.ts')).lookUpExchange(route.cassette, route.scope, canonical)
      : undefined
  if (lookup && 'replayed' in lookup) return replayed(lookup.replayed)
  if (lookup && 'miss' in lookup && route.scope) {
    route.onMiss(route.scope, lookup.miss)
    return refusal(lookup.miss.message)
  }
  if (route.mode === 'replay') {
    return refusal(
      `Replay: \`${requestLine(canonical)}\` was made outside any case (at module load, or after its case ended), so no cassette answers it and \`--replay\` makes no live calls.`,
    )
  }
  const headers = new Headers()
  request.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers.set(name, value)
  })
  const limiter = route.limiters?.for(providerKeyOf(url, request.headers))
  const live = await pacedSend(limiter, request.signal, () =>
    route.live(url, {
      method: request.method,
      headers,
      signal: request.signal,
      ...(body.byteLength > 0 && { body }),
    }),
  )
  const save = lookup && 'save' in lookup && recordable(live.status) ? lookup.save : undefined
  return save ? recorded(live, save) : forwarded(live, live.body)
}

/** 429s and server errors are the moment's, not the answer to the request: they are not recorded */
function recordable(status: number): boolean {
  return status < 500 && status !== 429 && status !== 408
}

function recorded(
  live: Response,
  save: (response: HttpCassetteEntry['response']) => void,
): Promise<Response> | Response {
  const contentType = live.headers.get('content-type')
  const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType }
  if (live.body && isEventStream(live.headers)) {
    return forwarded(
      live,
      recordingStream(live.body, (chunks) => {
        save({ status: live.status, headers, chunks })
      }),
    )
  }
  return live.text().then((text) => {
    save({ status: live.status, headers, body: jsonOrText(text) })
    return forwarded(live, text === '' ? null : text)
  })
}

function forwarded(live: Response, body: ResponseBody): Response {
  const headers = new Headers(live.headers)
  // the live fetch has decoded the body: its length and encoding no longer describe it
  headers.delete('content-encoding')
  headers.delete('content-length')
  return new Response(body, { status: live.status, statusText: live.statusText, headers })
}

function replayed(response: HttpCassetteEntry['response']): Response {
  const headers = { ...response.headers, 'x-evals-replayed': 'true' }
  let body: ResponseBody = null
  if (response.chunks) body = replayedStream(response.chunks)
  else if (typeof response.body === 'string') body = response.body
  else if (response.body !== undefined && response.body !== null) body = JSON.stringify(response.body)
  return new Response(body, { status: response.status, headers })
}

/** The reply to a request the layer will not send: an API error (both OpenAI's and Anthropic's shape), not retried. */
function refusal(message: string): Response {
  return Response.json(
    { type: 'error', error: { type: 'invalid_request_error', code: 'evals_replay_miss', message } },
    { status: 400, headers: { 'x-should-retry': 'false' } },
  )
}
