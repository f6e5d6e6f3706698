import { EvalsError, toError } from '../errors.ts'
import type { ResponseCache } from '../engine/cache.ts'
import type { Observer } from '../engine/observer.ts'
import type { RetryOptions } from '../engine/options.ts'
import { resolveRetry } from '../engine/retry.ts'
import type { Completion, CompletionRequest, Provider, ToolSchema } from '../providers/provider.ts'
import type { TraceStep } from '../types.ts'

/** The judge failed to give a usable verdict: the case is `errored`, never scored 0 and never passed. */
export class JudgeError extends EvalsError {
  readonly code = 'EVALS_JUDGE'
  /** the judge that failed */
  readonly judge: string
  /** the judge model's raw reply (tool arguments or text); undefined when the call itself failed */
  readonly raw: string | undefined
  constructor(message: string, options: ErrorOptions & { judge: string; raw?: string }) {
    super(message, options)
    this.judge = options.judge
    this.raw = options.raw
  }
}

/** How judge calls reach the model: the engine's model-call path, so retries, cache and trace apply. */
export interface JudgeCallScope {
  provider: Provider
  signal: AbortSignal
  trial: number
  /** namespaces the cache key beside the trial, so samples of one trial get their own answers */
  sample: number
  output: 'tool' | 'json-schema'
  temperature: number
  cache: ResponseCache | undefined
  retry: RetryOptions | undefined
  requestTimeoutMs: number
  observers: readonly Observer[]
}

/** One structured reply: the parsed arguments, the raw text, and the completion (usage, model). */
export interface StructuredReply {
  value: Record<string, unknown>
  raw: string
  completion: Completion
  cached: boolean
}

/**
 * Asks for one object matching `parameters` through a forced tool call named `tool` (or native JSON-schema output),
 * and parses it. Throws JudgeError with the raw reply when the reply is not such an object.
 */
export async function askStructured(
  judge: string,
  prompt: { system: string; user: string },
  tool: ToolSchema,
  scope: JudgeCallScope,
): Promise<StructuredReply> {
  const request: CompletionRequest = {
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    tools: [],
    settings: { temperature: scope.temperature, parallelToolCalls: false },
  }
  if (scope.output === 'json-schema' && scope.provider.capabilities?.structuredOutput) {
    request.output = { name: tool.name, schema: tool.parameters }
  } else {
    request.tools = [tool]
    request.toolChoice = { name: tool.name }
  }
  const trace: TraceStep[] = []
  // the engine's call path loads when a judge first asks, not with every suite that has judges
  const { callModel } = await import('../engine/model-call.ts')
  let completion: Completion
  try {
    completion = await callModel(request, 1, {
      runId: `judge:${judge}`,
      agent: `judge:${judge}`,
      provider: scope.provider,
      signal: scope.signal,
      observers: scope.observers,
      trace,
      retry: resolveRetry(scope.retry),
      requestTimeoutMs: scope.requestTimeoutMs,
      cache: sampleCache(scope.cache, scope.sample),
      trial: scope.trial,
      emit: undefined,
    })
  } catch (thrown) {
    if (scope.signal.aborted) throw thrown
    const error = toError(thrown)
    throw new JudgeError(
      `Judge \`${judge}\` got no verdict from \`${scope.provider.id}\`: ${error.message}`,
      { judge, cause: error },
    )
  }
  const cached = trace.some((step) => step.type === 'cache_hit')
  const call = completion.message.toolCalls.find((candidate) => candidate.name === tool.name)
  const raw = call?.arguments ?? completion.message.text
  const value = parseObject(call ? call.arguments : stripFence(completion.message.text))
  if (!value) {
    const what = call
      ? `its \`${tool.name}\` arguments are not a JSON object`
      : `it made no \`${tool.name}\` tool call and its text is not a JSON object`
    throw new JudgeError(`Judge \`${judge}\` gave an unparseable reply: ${what}. Raw reply: ${shown(raw)}`, {
      judge,
      raw,
    })
  }
  return { value, raw, completion, cached }
}

/** The raw reply as it appears in messages: quoted, cut at 2,000 characters. */
export function shown(raw: string): string {
  if (raw.trim() === '') return '(empty)'
  return JSON.stringify(raw.length > 2000 ? `${raw.slice(0, 1999)}…` : raw)
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function stripFence(text: string): string {
  return /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text)?.[1] ?? text
}

function sampleCache(cache: ResponseCache | undefined, sample: number): ResponseCache | undefined {
  if (!cache || sample === 0) return cache
  return {
    get: (key) => cache.get(`${key}:sample-${sample}`),
    set: (key, value) => cache.set(`${key}:sample-${sample}`, value),
  }
}
