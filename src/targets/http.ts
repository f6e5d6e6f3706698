import { ConfigError } from '../errors.ts'
import { costOf } from '../adapters/cost.ts'
import type { ToolCallRecord, Transcript, Usage } from '../types.ts'
import { toolCallsFromReply, usageFromReply } from './http-reply.ts'
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
  /**
   * dotted path of the token usage (OpenAI, Responses API or Anthropic shape)
   * @default the reply's top-level `usage`, when it has one; else usage is unknown
   */
  usage?: string | undefined
  /** dotted path of the list of tool calls the agent made (OpenAI, Anthropic or our shape); without it they are unknown */
  toolCalls?: string | undefined
  /** dotted path of the model id, for the cost @default the reply's top-level `model`, when it has one */
  model?: string | undefined
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
      if (context.trace) requestHeaders.set('traceparent', context.trace.traceparent)
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
      const needsJson = [options.output, options.usage, options.toolCalls, options.model].some(Boolean)
      const json = needsJson ? parseJson(text, target) : parseJsonOrUndefined(text)
      const answer = options.output === undefined ? text : pick(json, options.output, target, 'output')
      const transcript = toTranscript(
        typeof answer === 'string' ? answer : JSON.stringify(answer),
        input,
        latencyMs,
      ) as Transcript
      if (typeof answer === 'object' && answer !== null) transcript.parsed = answer
      transcript.usage = usageOf(json, options.usage, target) ?? null
      transcript.toolCalls = toolCallsOf(json, options.toolCalls, target) ?? null
      const model = modelOf(json, options.model, target)
      if (transcript.usage && model !== undefined) transcript.costUsd = await costOf(transcript.usage, model)
      return transcript
    },
  }
}

function usageOf(json: unknown, path: string | undefined, url: string): Usage | undefined {
  if (path === undefined) return usageFromReply((json as { usage?: unknown } | undefined)?.usage)
  const usage = usageFromReply(pick(json, path, url, 'usage'))
  if (usage) return usage
  throw new ConfigError(
    `${url}: \`${path}\` in the response is not token usage (expected \`prompt_tokens\`/\`completion_tokens\` or \`input_tokens\`/\`output_tokens\`). Fix \`usage\` in the target.`,
  )
}

function toolCallsOf(json: unknown, path: string | undefined, url: string): ToolCallRecord[] | undefined {
  if (path === undefined) return undefined
  const calls = toolCallsFromReply(pick(json, path, url, 'tool_calls'))
  if (calls) return calls
  throw new ConfigError(
    `${url}: \`${path}\` in the response is not a list of tool calls (each with a \`name\`, or OpenAI's \`function.name\`). Fix \`tool_calls\` in the target.`,
  )
}

function modelOf(json: unknown, path: string | undefined, url: string): string | undefined {
  const model =
    path === undefined ? (json as { model?: unknown } | undefined)?.model : pick(json, path, url, 'model')
  return typeof model === 'string' ? model : undefined
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
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
      `${url} did not answer JSON, so \`output\`, \`usage\`, \`tool_calls\` and \`model\` cannot pick a field; drop them to use the whole body. Got: ${text.slice(0, 120)}`,
    )
  }
}

/** Follows a dotted path (`data.items.0.text`) into a JSON value; `option` names the target option in errors. */
export function pick(value: unknown, path: string, url: string, option = 'output'): unknown {
  let current = value
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !(key in current)) {
      const keys =
        typeof current === 'object' && current !== null ? Object.keys(current).join(', ') : typeof current
      throw new ConfigError(
        `${url}: the response has no \`${path}\` (stopped at \`${key}\`; found: ${keys}). Fix \`${option}\` in the target.`,
      )
    }
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
