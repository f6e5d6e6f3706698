import { setTimeout as sleep } from 'node:timers/promises'
import { holdInProcessTracing, inCaseTrace, newCaseTrace, routeTrace } from './in-process.ts'
import { partsOfSpans, withTraceParts } from './normalize.ts'
import { startOtlpReceiver } from './receiver.ts'
import { caseSpansOf, type CapturedSpan } from './span.ts'
import type { CaseTraceContext, TraceHub } from './trace-hub.ts'

/** Starts a run's trace capture: the OTLP receiver on loopback, and the tracer provider of the process. */
export async function startTraceHub(warn: (message: string) => void): Promise<TraceHub> {
  const sinks = new Map<string, (span: CapturedSpan) => void>()
  const receiver = await startOtlpReceiver((span) => sinks.get(span.traceId)?.(span))
  const release = holdInProcessTracing(warn)
  return {
    async capture(run, wait) {
      const caseTrace = newCaseTrace()
      const spans: CapturedSpan[] = []
      let lastArrival = performance.now()
      const sink = (span: CapturedSpan) => {
        spans.push(span)
        lastArrival = performance.now()
      }
      sinks.set(caseTrace.traceId, sink)
      const unroute = routeTrace(caseTrace.traceId, sink)
      const context: CaseTraceContext = {
        traceparent: caseTrace.traceparent,
        endpoint: receiver.endpoint,
        tracesUrl: receiver.tracesUrl,
      }
      try {
        const value = await inCaseTrace(caseTrace, () => run(context))
        if (wait) {
          const replied = performance.now()
          lastArrival = replied
          while (
            performance.now() - lastArrival < wait.quietMs &&
            performance.now() - replied < wait.maxWaitMs
          )
            await sleep(Math.min(25, wait.quietMs))
        }
        return { value, spans }
      } finally {
        sinks.delete(caseTrace.traceId)
        unroute()
      }
    },
    async complete(transcript, spans) {
      return { ...withTraceParts(transcript, await partsOfSpans(spans)), spans: caseSpansOf(spans) }
    },
    async close() {
      release()
      await receiver.close()
    },
  }
}
