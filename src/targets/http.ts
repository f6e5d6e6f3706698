import { ConfigError } from '../errors.ts'
import type { Transcript } from '../types.ts'
import { compileTemplate, templateData, type TemplateData } from './template.ts'
import type { Target } from './target.ts'
import { toTranscript } from './to-transcript.ts'

/** An HTTP endpoint under test. */
export interface HttpTargetOptions {
  url: string
  /** @default 'POST' */
  method?: string | undefined
  /** values are templates, e.g. `Bearer {{env.API_TOKEN}}` */
  headers?: Record<string, string> | undefined
  /**
   * a handlebars template (`{"q": {{json input}}}`), or an object whose string values are templates, sent as JSON
   * @default { input: '{{input}}' }
   */
  body?: string | Record<string, unknown> | undefined
  /** dotted path of the answer in the JSON response, e.g. `choices.0.message.content`; without it the whole body */
  output?: string | undefined
  /** abort the request after this long */
  timeoutMs?: number | undefined
}

/** Sends each case to an HTTP endpoint. A non-2xx answer or a missing `output` path errors the case. */
export function httpTarget(options: HttpTargetOptions): Target {
  const method = (options.method ?? 'POST').toUpperCase()
  const url = compileTemplate(options.url)
  const body = compileBody(options.body ?? { input: '{{input}}' })
  const headers = Object.entries(options.headers ?? {}).map(
    ([name, value]) => [name, compileTemplate(value)] as const,
  )
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return {
    id: `http:${options.url}`,
    async run(input, context): Promise<Transcript> {
      const data = templateData(input, context)
      const started = performance.now()
      const requestHeaders = new Headers(headers.map(([name, value]) => [name, value(data)]))
      if (hasBody && !requestHeaders.has('content-type'))
        requestHeaders.set('content-type', 'application/json')
      const target = url(data)
      const response = await fetch(target, {
        method,
        headers: requestHeaders,
        signal:
          options.timeoutMs === undefined
            ? context.signal
            : AbortSignal.any([context.signal, AbortSignal.timeout(options.timeoutMs)]),
        ...(hasBody ? { body: body(data) } : {}),
      })
      const text = await response.text()
      if (!response.ok) {
        throw new Error(
          `${method} ${target} answered ${response.status} ${response.statusText}: ${text.slice(0, 200)}`,
        )
      }
      const latencyMs = performance.now() - started
      if (options.output === undefined) return toTranscript(text, input, latencyMs) as Transcript
      const answer = pick(parseJson(text, target), options.output, target)
      const transcript = toTranscript(
        typeof answer === 'string' ? answer : JSON.stringify(answer),
        input,
        latencyMs,
      )
      if (transcript && typeof answer === 'object' && answer !== null) transcript.parsed = answer
      return transcript as Transcript
    },
  }
}

function compileBody(body: string | Record<string, unknown>): (data: TemplateData) => string {
  if (typeof body === 'string') return compileTemplate(body)
  const render = compileValue(body)
  return (data) => JSON.stringify(render(data))
}

function compileValue(value: unknown): (data: TemplateData) => unknown {
  if (typeof value === 'string') return compileTemplate(value)
  if (Array.isArray(value)) {
    const items = value.map(compileValue)
    return (data) => items.map((item) => item(data))
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, compileValue(item)] as const)
    return (data) => Object.fromEntries(entries.map(([key, item]) => [key, item(data)]))
  }
  return () => value
}

function parseJson(text: string, url: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new ConfigError(
      `${url} did not answer JSON, so \`output\` cannot pick a field; drop \`output\` to use the whole body. Got: ${text.slice(0, 120)}`,
    )
  }
}

/** Follows a dotted path (`data.items.0.text`) into a JSON value. */
export function pick(value: unknown, path: string, url: string): unknown {
  let current = value
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !(key in current)) {
      const keys =
        typeof current === 'object' && current !== null ? Object.keys(current).join(', ') : typeof current
      throw new ConfigError(
        `${url}: the response has no \`${path}\` (stopped at \`${key}\`; found: ${keys}). Fix \`output\` in the target.`,
      )
    }
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
