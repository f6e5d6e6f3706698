import {
  context,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api'
import type { Observer } from './observer.ts'

const TRACER_NAME = 'evals'

/** The tracer of the registered tracer provider, or undefined when none is registered (then nothing is traced). */
function activeTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider()
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- in api 1.x the only way to tell "none registered"
  return provider instanceof ProxyTracerProvider
    ? provider.getDelegateTracer(TRACER_NAME)
    : provider.getTracer(TRACER_NAME)
}

/**
 * The agent with a spans observer added for one run when a tracer provider is registered; else the agent itself.
 * `parent` is the context of the tool call that started the run (an agent called as a tool), its span the run's parent.
 */
export function withSpans<
  Agent extends { observers: readonly Observer[]; spanOfCall?: (callId: string) => unknown },
>(agent: Agent, parent?: unknown): Agent {
  const tracer = activeTracer()
  if (!tracer) return agent
  const spans = spansObserver(tracer, (parent as Context | undefined) ?? context.active())
  return { ...agent, observers: [...agent.observers, spans.observer], spanOfCall: spans.contextOfCall }
}

/**
 * Observes one run as OpenTelemetry spans with the GenAI semantic conventions: `invoke_agent` for the run, a
 * `chat` child per model call and an `execute_tool` child per tool call. The run span's parent is the context
 * active when the run starts (the runner's case span under `--otel`).
 */
function spansObserver(
  tracer: Tracer,
  parent: Context,
): { observer: Observer; contextOfCall: (callId: string) => Context } {
  let run: Span | undefined
  let runContext: Context = parent
  /** the span of the agent a handoff moved the conversation to, under the run's span */
  let handedTo: { span: Span; context: Context } | undefined
  const models = new Map<number, Span>()
  const tools = new Map<string, Span>()
  const child = (name: string, kind: SpanKind, attributes: Record<string, string | number>): Span =>
    tracer.startSpan(name, { kind, attributes }, handedTo?.context ?? runContext)
  const contextOfCall = (callId: string): Context => {
    const span = tools.get(callId)
    const base = handedTo?.context ?? runContext
    return span ? trace.setSpan(base, span) : base
  }

  const observer: Observer = {
    onHandoff({ to }) {
      handedTo?.span.end()
      const span = tracer.startSpan(
        `invoke_agent ${to}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': to },
        },
        runContext,
      )
      handedTo = { span, context: trace.setSpan(runContext, span) }
    },
    onRunStart({ agent, runId }) {
      run = tracer.startSpan(
        `invoke_agent ${agent}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': agent,
            'evals.run_id': runId,
          },
        },
        runContext,
      )
      runContext = trace.setSpan(runContext, run)
    },
    onLlmStart({ iteration, providerId }) {
      const colon = providerId.indexOf(':')
      const provider = colon < 0 ? providerId : providerId.slice(0, colon)
      const model = colon < 0 ? providerId : providerId.slice(colon + 1)
      models.get(iteration)?.end()
      models.set(
        iteration,
        child(`chat ${model}`, SpanKind.CLIENT, {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': provider,
          'gen_ai.request.model': model,
          'evals.iteration': iteration,
        }),
      )
    },
    onLlmEnd({ iteration, completion, cached }) {
      const span = models.get(iteration)
      models.delete(iteration)
      span?.setAttributes({
        'gen_ai.response.model': completion.model,
        'gen_ai.response.finish_reasons': [completion.finishReason],
        'gen_ai.usage.input_tokens': completion.usage.inputTokens,
        'gen_ai.usage.output_tokens': completion.usage.outputTokens,
        'evals.cached': cached,
      })
      span?.end()
    },
    onToolStart({ callId, name }) {
      tools.set(callId, toolSpan(name, callId))
    },
    onToolEnd({ callId }) {
      tools.get(callId)?.end()
      tools.delete(callId)
    },
    onToolError({ callId, call }) {
      // a call refused before it ran (unknown tool, bad arguments, policy) gets a span of its own
      const span = tools.get(callId) ?? toolSpan(call.name, callId)
      tools.delete(callId)
      failed(span, call.error ?? 'the tool failed', 'tool_error')
      span.end()
    },
    onRunEnd({ result }) {
      const error = result.error ?? `the run stopped: ${result.stopReason}`
      for (const span of [...models.values(), ...tools.values()]) {
        failed(span, error, result.stopReason)
        span.end()
      }
      run?.setAttributes({
        'gen_ai.usage.input_tokens': result.usage.inputTokens,
        'gen_ai.usage.output_tokens': result.usage.outputTokens,
        'evals.stop_reason': result.stopReason,
      })
      if (result.stopReason === 'error' || result.stopReason === 'aborted')
        failed(run, error, result.stopReason)
      handedTo?.span.end()
      run?.end()
    },
  }
  return { observer, contextOfCall }

  function toolSpan(name: string, callId: string): Span {
    return child(`execute_tool ${name}`, SpanKind.INTERNAL, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': callId,
    })
  }
}

function failed(span: Span | undefined, message: string, type: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, message })
  span?.setAttribute('error.type', type)
}
