import type { Transcript } from '../types.ts'
import type { CapturedSpan } from './span.ts'

/**
 * How long to wait for spans that arrive after an out-of-process target replied: until the target's root span (the
 * child of the case's `traceparent`) came and then no span for `quietMs`, or `maxWaitMs` at most.
 */
export interface TraceWait {
  /** stop once the root span came and no span came for this long @default 200 */
  quietMs: number
  /** stop after this long however spans come (a target that sends no root span waits this long) @default 2000 */
  maxWaitMs: number
}

/** What a target is told of the trace its case runs in. */
export interface CaseTraceContext {
  /** the W3C `traceparent` of the case: a target in another process sends its spans under it */
  traceparent: string
  /** the run's OTLP/HTTP receiver, `http://127.0.0.1:<port>` (`OTEL_EXPORTER_OTLP_ENDPOINT`) */
  endpoint: string
  /** `<endpoint>/v1/traces` (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) */
  tracesUrl: string
}

/**
 * A run's trace capture (`trace: true`, `--trace`), one of its services: it gives each target call a trace of its
 * own and collects the spans that trace produced, in process through the registered tracer provider and from
 * other processes through the OTLP receiver, so the spans of concurrent cases never mix.
 */
export interface TraceHub {
  /**
   * Runs one target call inside its case's trace and returns what the call returned with the spans it produced.
   * `wait`, for a target in another process: its spans come over the network, and are waited for so after the call.
   */
  capture<T>(
    run: (trace: CaseTraceContext) => Promise<T>,
    wait: TraceWait | undefined,
  ): Promise<{ value: T; spans: CapturedSpan[] }>
  /**
   * The target's transcript with what the spans say where it said nothing (its own fields win), and the spans
   * themselves (bounded) for the trace checks and the report.
   */
  complete(transcript: Transcript, spans: readonly CapturedSpan[]): Promise<Transcript>
  /** stops the receiver and releases the tracer provider */
  close(): Promise<void>
}
