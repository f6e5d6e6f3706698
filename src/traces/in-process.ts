import { context, trace, TraceFlags, type Context } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { RandomIdGenerator, TracerProvider } from '@opentelemetry/sdk-trace'
import { traceCaptureProcessor } from './capture-processor.ts'

let registered: { users: number; provider: TracerProvider | undefined } | undefined
const ids = new RandomIdGenerator()

/**
 * Registers the process's tracer provider (once for all the runs in it) and returns how to release it. `warn` is
 * told when another provider was registered first (then only that provider's spans with `traceCaptureProcessor()`
 * reach the run).
 */
export function holdInProcessTracing(warn: (message: string) => void): () => void {
  if (registered) registered.users++
  else {
    const provider = new TracerProvider({ spanProcessors: [traceCaptureProcessor()] })
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
    const ours = trace.setGlobalTracerProvider(provider)
    if (!ours)
      warn(
        "trace capture: another OpenTelemetry tracer provider is registered in this process (the agent's own SDK, or a library's); add `traceCaptureProcessor()` from agent-evals to it, or in-process spans are not captured.",
      )
    registered = { users: 1, provider: ours ? provider : undefined }
  }
  let released = false
  return () => {
    if (released || !registered) return
    released = true
    if (--registered.users > 0) return
    if (registered.provider) {
      trace.disable()
      context.disable()
      void registered.provider.shutdown()
    }
    registered = undefined
  }
}

/** A new trace for one case: its id, the parent context its code runs in, and its W3C `traceparent`. */
export interface CaseTrace {
  traceId: string
  traceparent: string
  context: Context
}

/**
 * A trace for one case. Under `--otel` the case's own span (the active one) is its root, so the spans stay in the
 * exported trace; otherwise a new trace id with a parent that records nothing.
 */
export function newCaseTrace(): CaseTrace {
  const active = trace.getActiveSpan()?.spanContext()
  const spanContext =
    active && trace.isSpanContextValid(active)
      ? active
      : {
          traceId: ids.generateTraceId(),
          spanId: ids.generateSpanId(),
          traceFlags: TraceFlags.SAMPLED,
          isRemote: true,
        }
  return {
    traceId: spanContext.traceId,
    traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-01`,
    context: trace.setSpanContext(context.active(), spanContext),
  }
}

/** Runs `run` with the case's trace as the active context, so the spans it starts join it. */
export function inCaseTrace<T>(caseTrace: CaseTrace, run: () => Promise<T>): Promise<T> {
  return context.with(caseTrace.context, run)
}
