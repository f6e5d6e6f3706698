import { context, SpanStatusCode, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  BatchSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace'
import type { CaseResult } from '../model/case-result.ts'
import type { PairId } from '../runner/plan/run-settings.ts'
import type { Redactor } from '../util/redact.ts'

/** The runner's hook under `--otel`: each pair runs as the root span of its own trace. */
export interface CaseTracing {
  aroundCase: (job: PairId, run: () => Promise<CaseResult>) => Promise<CaseResult>
  /** exports what is left and unregisters the provider */
  shutdown: () => Promise<void>
}

/**
 * Registers a tracer provider that sends spans to an OTLP/HTTP endpoint (`evals run --otel <url>`). Agents built
 * with this engine find it and trace their runs under the case's span. Every span's attributes, status and events
 * go through the run's `redactor` before they leave the process.
 */
export function startOtlpExport(url: string, redactor: Redactor): CaseTracing {
  const exporter = redactingExporter(new OTLPTraceExporter({ url }), redactor)
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'evals' }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
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

/** The spans as `exporter` would send them, their values redacted (each span read through a redacted view). */
function redactingExporter(exporter: SpanExporter, redactor: Redactor): SpanExporter {
  const redacted = (span: ReadableSpan): ReadableSpan =>
    Object.create(span, {
      attributes: { value: redactor.value(span.attributes) },
      status: { value: redactor.value(span.status) },
      events: { value: redactor.value(span.events) },
      name: { value: redactor(span.name) },
    }) as ReadableSpan
  return {
    export: (spans, done) => {
      exporter.export(spans.map(redacted), done)
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush && { forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve() }),
  }
}
