import { context, SpanStatusCode, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import type { CaseResult } from '../model/case-result.ts'
import type { CaseJob } from '../runner/execute/run-case.ts'

/** The runner's hook under `--otel`: each pair runs as the root span of its own trace. */
export interface CaseTracing {
  aroundCase: (job: CaseJob, run: () => Promise<CaseResult>) => Promise<CaseResult>
  /** exports what is left and unregisters the provider */
  shutdown: () => Promise<void>
}

/**
 * Registers a tracer provider that sends spans to an OTLP/HTTP endpoint (`evals run --otel <url>`). Agents built
 * with this engine find it and trace their runs under the case's span.
 */
export function startOtlpExport(url: string): CaseTracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'evals' }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  trace.setGlobalTracerProvider(provider)
  const tracer = provider.getTracer('evals')
  return {
    aroundCase: (job, run) =>
      tracer.startActiveSpan(
        `case ${job.suite}/${job.caseId}`,
        {
          root: true,
          attributes: { 'evals.suite': job.suite, 'evals.case.id': job.caseId, 'evals.trial': job.trial },
        },
        async (span) => {
          try {
            const result = await run()
            span.setAttribute('evals.case.status', result.status)
            if (result.status === 'errored')
              span.setStatus({ code: SpanStatusCode.ERROR, message: result.error.message })
            return result
          } finally {
            span.end()
          }
        },
      ),
    shutdown: async () => {
      await provider.shutdown()
      trace.disable()
      context.disable()
    },
  }
}
