import { context, trace } from '@opentelemetry/api'
import type { CapturedSpan, SpanValue } from './span.ts'

/** The parts of an OpenAI Agents SDK span this reads (`Span` of @openai/agents-core, an optional peer). */
interface AgentsSpan {
  traceId: string
  spanId: string
  parentId: string | null
  startedAt: string | null
  endedAt: string | null
  error: { message: string } | null
  spanData: {
    type: string
    name?: string
    input?: unknown
    output?: unknown
    model?: string
    usage?: unknown
    _response?: unknown
  }
}

interface AgentsProcessor {
  onTraceStart(trace: { traceId: string }): Promise<void>
  onTraceEnd(trace: { traceId: string }): Promise<void>
  onSpanStart(span: AgentsSpan): Promise<void>
  onSpanEnd(span: AgentsSpan): Promise<void>
  shutdown(): Promise<void>
  forceFlush(): Promise<void>
}

/** Where the Agents SDK keeps its trace provider (`getGlobalTraceProvider` of @openai/agents-core). */
const PROVIDER = Symbol.for('openai.agents.core.traceProvider')
/** the SDK providers this process added its processor to */
const attached = new WeakSet<object>()

/**
 * Adds a trace processor to the OpenAI Agents SDK, whose tracing is its own and not OpenTelemetry's: a trace the
 * SDK starts inside a case's trace context is that case's, and its spans reach the case as GenAI-convention spans
 * (`function` spans as tool calls, `response` and `generation` spans as model calls), read by the same normalizer.
 * The SDK is never imported: its trace provider is found where it keeps it, once the user's code loaded it (importing
 * `@openai/agents` makes it). Returns whether the processor is in place. The SDK traces only when its tracing is on
 * (off under `NODE_ENV=test` and `OPENAI_AGENTS_DISABLE_TRACING`).
 */
export function attachAgentsSdk(
  sinkOf: (traceId: string) => ((span: CapturedSpan) => void) | undefined,
): boolean {
  const provider = (globalThis as Record<symbol, unknown>)[PROVIDER] as
    { registerProcessor?: (processor: AgentsProcessor) => void } | undefined
  if (typeof provider?.registerProcessor !== 'function') return false
  if (attached.has(provider)) return true
  attached.add(provider)
  const cases = new Map<string, string>()
  const done = Promise.resolve()
  provider.registerProcessor({
    onTraceStart: (started) => {
      const active = trace.getSpanContext(context.active())
      if (active && sinkOf(active.traceId)) cases.set(started.traceId, active.traceId)
      return done
    },
    onTraceEnd: (ended) => {
      cases.delete(ended.traceId)
      return done
    },
    onSpanStart: () => done,
    onSpanEnd: (span) => {
      const caseTraceId = cases.get(span.traceId)
      const sink = caseTraceId === undefined ? undefined : sinkOf(caseTraceId)
      if (caseTraceId !== undefined && sink) sink(capturedOfAgentsSpan(span, caseTraceId))
      return done
    },
    shutdown: () => done,
    forceFlush: () => done,
  })
  return true
}

function capturedOfAgentsSpan(span: AgentsSpan, traceId: string): CapturedSpan {
  const startedAt = span.startedAt === null ? Date.now() : Date.parse(span.startedAt)
  const endedAt = span.endedAt === null ? startedAt : Date.parse(span.endedAt)
  const { name, attributes } = genAiOf(span.spanData)
  return {
    traceId,
    spanId: span.spanId,
    ...(span.parentId !== null && { parentSpanId: span.parentId }),
    name,
    startedAt,
    durationMs: Math.max(0, endedAt - startedAt),
    status: span.error ? 'error' : 'unset',
    ...(span.error && { error: span.error.message }),
    attributes,
  }
}

/** The SDK's span data in the GenAI semantic conventions. */
function genAiOf(data: AgentsSpan['spanData']): { name: string; attributes: Record<string, SpanValue> } {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))
  switch (data.type) {
    case 'function':
      return {
        name: `execute_tool ${data.name ?? ''}`,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': data.name ?? 'unknown',
          ...(data.input !== undefined && { 'gen_ai.tool.call.arguments': text(data.input) }),
          ...(data.output !== undefined && { 'gen_ai.tool.call.result': text(data.output) }),
        },
      }
    case 'response':
    case 'generation': {
      const response = (data._response ?? {}) as { model?: string; usage?: Record<string, unknown> }
      const usage = (data.usage ?? response.usage ?? {}) as {
        input_tokens?: number
        output_tokens?: number
        input_tokens_details?: { cached_tokens?: number }
      }
      const model = data.model ?? response.model
      return {
        name: `chat ${model ?? ''}`.trim(),
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          ...(model !== undefined && { 'gen_ai.request.model': model }),
          ...(usage.input_tokens !== undefined && { 'gen_ai.usage.input_tokens': usage.input_tokens }),
          ...(usage.output_tokens !== undefined && { 'gen_ai.usage.output_tokens': usage.output_tokens }),
          ...(usage.input_tokens_details?.cached_tokens !== undefined && {
            'gen_ai.usage.cache_read.input_tokens': usage.input_tokens_details.cached_tokens,
          }),
        },
      }
    }
    default:
      return { name: data.name ?? data.type, attributes: { 'openai_agents.span.type': data.type } }
  }
}
