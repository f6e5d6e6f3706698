import { setTimeout as sleep } from 'node:timers/promises'
import { routeTrace, sinkOf } from './capture-processor.ts'
import { holdInProcessTracing, inCaseTrace, newCaseTrace } from './in-process.ts'
import { attachAgentsSdk } from './openai-agents.ts'
import { partsOfSpans, withTraceParts } from './normalize.ts'
import { startOtlpReceiver } from './receiver.ts'
import { caseSpansOf, type CapturedSpan } from './span.ts'
import type { CaseTraceContext, TraceHub } from './trace-hub.ts'

/**
 * Starts a run's trace capture: the OTLP receiver on 127.0.0.1 (`port`, else a free one), and the tracer provider
 * of the process, unless `provider` is `'run'`: the run registered one of its own (`--otel`) that carries
 * `traceCaptureProcessor()`.
 */
export async function startTraceHub(
  port: number | undefined,
  warn: (message: string) => void,
  provider: 'own' | 'run' = 'own',
): Promise<TraceHub> {
  // spans from the receiver go where in-process ones do: to the sink `routeTrace` set for their trace
  const receiver = await startOtlpReceiver((span) => sinkOf(span.traceId)?.(span), port)
  const release = provider === 'own' ? holdInProcessTracing(warn) : () => undefined
  // looked for at each case until found: the SDK makes its provider when the user's code loads it
  let agentsSdk = false
  return {
    async capture(run, wait) {
      agentsSdk ||= attachAgentsSdk(sinkOf)
      const caseTrace = newCaseTrace()
      const spans: CapturedSpan[] = []
      let lastArrival = performance.now()
      // the target's own root span (a child of the case's traceparent) ends after its children: once it came, the
      // rest are in or about to be
      let rootArrived = false
      const parentId = caseTrace.traceparent.split('-')[2]
      const sink = (span: CapturedSpan) => {
        spans.push(span)
        lastArrival = performance.now()
        rootArrived ||= span.parentSpanId === parentId
      }
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
          lastArrival = Math.max(lastArrival, replied)
          const waiting = () =>
            performance.now() - replied < wait.maxWaitMs &&
            (!rootArrived || performance.now() - lastArrival < wait.quietMs)
          while (waiting()) await sleep(Math.min(25, Math.max(1, wait.quietMs)))
        }
        return { value, spans }
      } finally {
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
