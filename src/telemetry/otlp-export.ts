import { context, SpanStatusCode, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  BatchSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
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

/** What `startOtlpExport` may be given. */
export interface OtlpExportOptions {
  /** told once when spans could not be sent (an unreachable endpoint), and at shutdown how many were lost */
  warn?: (message: string) => void
  /** more processors for the same provider: trace capture's (`--trace`), so the run's spans reach both */
  spanProcessors?: readonly SpanProcessor[]
}

/**
 * Registers a tracer provider that sends spans to an OTLP/HTTP endpoint (`evals run --otel <url>`). Agents built
 * with this engine find it and trace their runs under the case's span. Every span's attributes, status and events
 * go through the run's `redactor` before they leave the process.
 */
export function startOtlpExport(
  url: string,
  redactor: Redactor,
  options: OtlpExportOptions = {},
): CaseTracing {
  const exporter = new LossReportingExporter(
    redactingExporter(new OTLPTraceExporter({ url }), redactor),
    url,
    options.warn,
  )
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'evals' }),
    spanProcessors: [new BatchSpanProcessor({ exporter }), ...(options.spanProcessors ?? [])],
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
      // a failed last export rejects here; the exporter has counted its spans and reports them below
      await provider.shutdown().catch(() => undefined)
      trace.disable()
      context.disable()
      exporter.reportLoss()
    },
  }
}

/** `ExportResultCode.SUCCESS` of @opentelemetry/core, which is not a dependency of ours */
const EXPORT_SUCCESS = 0

/** Passes spans on, and says so when a batch could not be sent: the SDK itself only logs to its silent diag logger. */
class LossReportingExporter implements SpanExporter {
  #lost = 0
  #firstError: string | undefined
  readonly #inner: SpanExporter
  readonly #url: string
  readonly #warn: ((message: string) => void) | undefined

  constructor(inner: SpanExporter, url: string, warn: ((message: string) => void) | undefined) {
    this.#inner = inner
    this.#url = url
    this.#warn = warn
  }

  export(...[spans, done]: Parameters<SpanExporter['export']>): void {
    this.#inner.export(spans, (result) => {
      if ((result.code as number) !== EXPORT_SUCCESS) {
        this.#lost += spans.length
        if (this.#firstError === undefined) {
          this.#firstError = result.error?.message ?? 'export failed'
          this.#warn?.(`--otel: could not send spans to ${this.#url}: ${this.#firstError}`)
        }
      }
      done(result)
    })
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown()
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve()
  }

  /** the spans lost over the run, told once at the end */
  reportLoss(): void {
    if (this.#lost === 0) return
    this.#warn?.(
      `--otel: ${String(this.#lost)} span${this.#lost === 1 ? '' : 's'} not delivered to ${this.#url} (${this.#firstError ?? 'export failed'}); check that an OTLP/HTTP receiver listens there.`,
    )
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
