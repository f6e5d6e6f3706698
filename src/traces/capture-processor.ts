import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace'
import { capturedOfSdk } from './from-sdk.ts'
import type { CapturedSpan } from './span.ts'

/** Where the spans of each trace id go while its case runs: one table for the process, as the tracer API is one. */
const routes = new Map<string, (span: CapturedSpan) => void>()
/**
 * A span processor that hands each finished span to the case whose trace it belongs to, and drops the others.
 * Trace capture registers a tracer provider with it; add it to a tracer provider of your own (an agent that makes
 * its own `NodeTracerProvider`, an AI SDK `experimental_telemetry.tracer` from it) so its spans reach the run too.
 */
export function traceCaptureProcessor(): SpanProcessor {
  return {
    onStart: () => undefined,
    onEnd: (span: ReadableSpan) => routes.get(span.spanContext().traceId)?.(capturedOfSdk(span)),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  }
}

/** Routes the spans of `traceId` to `sink` until the returned function is called. */
export function routeTrace(traceId: string, sink: (span: CapturedSpan) => void): () => void {
  routes.set(traceId, sink)
  return () => routes.delete(traceId)
}

/** Where the spans of `traceId` go, while its case runs. */
export function sinkOf(traceId: string): ((span: CapturedSpan) => void) | undefined {
  return routes.get(traceId)
}
