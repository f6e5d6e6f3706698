import { createHash } from 'node:crypto'
import { canonicalJson } from '../util/canonical-json.ts'
import type { CompletionRequest } from '../providers/provider.ts'

/**
 * The request as a cassette keys it: `undefined` dropped, and the ids of tool calls (which a live API makes up
 * afresh on every call) replaced by their position, so a re-run sends the same canonical request.
 */
export function canonicalRequest(request: CompletionRequest): unknown {
  const ids = new Map<string, string>()
  const idOf = (id: string): string => {
    let stable = ids.get(id)
    if (stable === undefined) {
      stable = `call_${ids.size + 1}`
      ids.set(id, stable)
    }
    return stable
  }
  const messages = request.messages.map((message) => {
    if (message.role === 'assistant' && message.toolCalls)
      return { ...message, toolCalls: message.toolCalls.map((call) => ({ ...call, id: idOf(call.id) })) }
    if (message.role === 'tool') return { ...message, toolCallId: idOf(message.toolCallId) }
    return message
  })
  return JSON.parse(canonicalJson({ ...request, messages })) as unknown
}

/** sha256 of the canonical JSON of `value`, in hex. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex')
}

const SECRET_PATTERNS = [/\bsk-(?:ant-)?[A-Za-z0-9_-]{8,}/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g]
const SECRET_KEYS = /^(authorization|x-api-key|api[-_]?key|proxy-authorization)$/i
const SECRET_ENV = /(API_KEY|_TOKEN|_SECRET|PASSWORD)$/i

/** Values of environment variables that look like credentials (long enough to be worth hiding). */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_ENV.test(name) && value !== undefined && value.trim().length >= 8)
    .map(([, value]) => (value ?? '').trim())
}

/** A deep copy with API keys, bearer tokens and the given secret values replaced by `[redacted]`. */
export function scrubSecrets<Value>(value: Value, secrets: readonly string[]): Value {
  const scrub = (item: unknown, key: string | undefined): unknown => {
    if (typeof item === 'string') {
      if (key !== undefined && SECRET_KEYS.test(key)) return '[redacted]'
      let text = item
      for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join('[redacted]')
      for (const pattern of SECRET_PATTERNS) text = text.replace(pattern, '[redacted]')
      return text
    }
    if (Array.isArray(item)) return item.map((entry) => scrub(entry, undefined))
    if (item !== null && typeof item === 'object')
      return Object.fromEntries(Object.entries(item).map(([name, entry]) => [name, scrub(entry, name)]))
    return item
  }
  return scrub(value, undefined) as Value
}
