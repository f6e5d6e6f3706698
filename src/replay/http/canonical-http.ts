import { canonicalJson } from '../../util/canonical-json.ts'
import { jsonOrText } from '../../util/json-or-text.ts'

/** A request as a cassette keys it: no headers (so no keys), the port dropped, the body canonical. */
export interface CanonicalHttpRequest {
  method: string
  /** the host name only: a loopback server's port changes between runs */
  host: string
  /** path and sorted query, secret-bearing parameters (`key`, `api-key`, …) dropped */
  path: string
  /** the JSON body, canonical (see `canonicalBody`), or the text of any other body; null when empty */
  body: unknown
}

/** top-level body fields that change from run to run or name the caller, not the question asked */
const VOLATILE = new Set([
  'user',
  'metadata',
  'stream_options',
  'prompt_cache_key',
  'safety_identifier',
  'request_id',
])
/** fields, at any depth, that hold ids a live API or SDK makes up afresh on every call */
const ID_FIELDS = new Set([
  'id',
  'call_id',
  'tool_call_id',
  'tool_use_id',
  'item_id',
  'response_id',
  'previous_response_id',
])
/** fields, at any depth, that hold the time of the call */
const TIME_FIELDS = new Set(['created', 'created_at', 'timestamp'])
const SECRET_PARAMETERS = new Set(['key', 'api-key', 'api_key', 'apikey', 'access_token', 'token'])

/** `POST api.openai.com/v1/responses`: how messages name a request */
export function requestLine(request: Pick<CanonicalHttpRequest, 'method' | 'host' | 'path'>): string {
  return `${request.method} ${request.host}${request.path}`
}

/** The canonical form of a request; `bodyText` is its body decoded as UTF-8. */
export function canonicalHttpRequest(method: string, url: URL, bodyText: string): CanonicalHttpRequest {
  const params = [...url.searchParams].filter(([name]) => !SECRET_PARAMETERS.has(name.toLowerCase()))
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const query = new URLSearchParams(params).toString()
  return {
    method: method.toUpperCase(),
    host: url.hostname,
    path: url.pathname + (query ? `?${query}` : ''),
    body: bodyOf(bodyText),
  }
}

function bodyOf(text: string): unknown {
  return text === '' ? null : canonicalBody(jsonOrText(text))
}

/**
 * A JSON body with volatile top-level fields dropped, times dropped, and ids replaced by their order of first
 * appearance (`id_1`, `id_2`, …), so a re-run that asks the same question sends the same canonical body.
 */
export function canonicalBody(body: unknown): unknown {
  const ids = new Map<string, string>()
  const walk = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, false))
    if (value === null || typeof value !== 'object') return value
    const out: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(value)) {
      if ((top && VOLATILE.has(key)) || TIME_FIELDS.has(key)) continue
      if (ID_FIELDS.has(key) && typeof field === 'string') {
        let stable = ids.get(field)
        if (stable === undefined) ids.set(field, (stable = `id_${String(ids.size + 1)}`))
        out[key] = stable
      } else out[key] = walk(field, false)
    }
    return out
  }
  return JSON.parse(canonicalJson(walk(body, true))) as unknown
}
