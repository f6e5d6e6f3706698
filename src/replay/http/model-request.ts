import { createHash } from 'node:crypto'

/** hosts of model APIs: every POST to them is a model call */
const MODEL_HOSTS = new Set([
  'api.openai.com',
  'api.anthropic.com',
  'generativelanguage.googleapis.com',
  'api.mistral.ai',
  'api.groq.com',
  'api.deepseek.com',
  'api.x.ai',
  'api.together.xyz',
  'api.fireworks.ai',
  'api.cohere.com',
  'api.cohere.ai',
  'openrouter.ai',
  'api.perplexity.ai',
])
/** the paths of model APIs on any host (OpenAI-compatible servers, gateways, Azure, a loopback mock) */
const MODEL_PATHS =
  /\/(chat\/completions|completions|responses|messages|embeddings)$|:(stream)?generateContent$/i

/**
 * Whether a request is a model call the HTTP layer records and paces: a POST to a model API's host, or to a model
 * API's path on any host. Everything else (a tool's own HTTP calls, telemetry, MCP) passes untouched.
 */
export function isModelRequest(method: string, url: URL): boolean {
  if (method.toUpperCase() !== 'POST') return false
  return MODEL_HOSTS.has(url.hostname) || MODEL_PATHS.test(url.pathname)
}

/**
 * The key requests are paced by: the host and a hash of the API key, since a provider's limits are per key. The
 * key itself never leaves this function.
 */
export function providerKeyOf(url: URL, headers: Headers): string {
  const secret =
    headers.get('authorization') ??
    headers.get('x-api-key') ??
    headers.get('api-key') ??
    headers.get('x-goog-api-key')
  const hash = secret === null ? 'no-key' : createHash('sha256').update(secret).digest('hex').slice(0, 12)
  return `http:${url.host}#${hash}`
}
