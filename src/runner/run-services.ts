import { RateLimiters } from '../engine/rate-limit.ts'
import type { KeylessAnswer } from '../providers/keyless.ts'
import { CassetteSet } from '../replay/cassettes.ts'
import type { HttpLayer } from '../replay/http/http-layer.ts'
import type { CaseTracing } from '../telemetry/otlp-export.ts'
import type { TraceHub } from '../traces/trace-hub.ts'
import { createRedactor, loadSecretShapes, type Redactor } from '../util/redact.ts'
import type { Target } from '../targets/target.ts'
import type { ResolvedRun } from './plan/run-settings.ts'

/**
 * What one run's pairs and writers share, made per run and passed to what uses it, so two runs in one process
 * (two `describeSuite` files in one vitest worker, two library calls) never see each other's. Nothing here is read
 * from a process-wide place: every writer takes the redactor as a parameter, every pair its cassette and limiter.
 */
export interface RunServices {
  /** the run's secrets: key variables, secretlint's shapes, and `redaction.patterns`; applied to values, never to file syntax */
  redactor: Redactor
  /** per-provider adaptive concurrency (`recording.rateLimit`); undefined when off */
  limiters: RateLimiters | undefined
  /** the suites' cassettes (`--record`, `--replay`); undefined when off */
  cassettes: CassetteSet | undefined
  /** whether the cassettes answer a model without an API key (replay): targets and judges resolve it keyless */
  keyless: (model: string) => KeylessAnswer
  /**
   * recording, replay and pacing under other SDKs: `fetch` and `node:http` intercepted in this process for agent and
   * function targets, a loopback proxy for command targets; undefined when nothing needs it
   */
  http: HttpLayer | undefined
  /** trace capture (`--trace`, `trace: true`): the tracer provider and the OTLP receiver; undefined when no case traces */
  traces: TraceHub | undefined
  /**
   * the export of the run's spans (`--otel`), whose tracer provider also feeds trace capture when cases trace;
   * undefined without `--otel`. Its `shutdown` is the front end's, after its last line (`closeServices` leaves it).
   */
  otel: CaseTracing | undefined
}

/** What a front end adds to the services of a run. */
export interface ServiceOptions {
  /** `--otel <url>`: export every case's spans there; `warn` is told of spans that could not be sent */
  otel?: { url: string; warn: (message: string) => void }
}

/** Makes the services of `run`; `closeServices` ends them. */
export async function makeServices(run: ResolvedRun, options: ServiceOptions = {}): Promise<RunServices> {
  // secretlint's rules load when a value may hold a shape (most runs of plain outputs never do), except that a
  // recorded cassette, written as calls return, gets them before the first call
  if (run.recording.cassettes !== undefined && run.recording.cassettes !== 'replay') await loadSecretShapes()
  const redactor = createRedactor({ patterns: run.redaction.patterns, shapes: 'lazy' })
  const cassettes =
    run.recording.cassettes === undefined
      ? undefined
      : await CassetteSet.open(run.suites, run.recording.cassettes, redactor)
  const { rateLimit } = run.recording
  const limiters =
    rateLimit === false ? undefined : new RateLimiters({ maxConcurrency: run.concurrency, ...rateLimit })
  const types = new Set(run.suites.map((suite) => suite.target.type))
  const inProcess = run.targets !== undefined || types.has('agent') || types.has('function')
  const proxy = types.has('command')
  // with cassettes, loaded now for any target that may call a model through an SDK of its own; for pacing alone,
  // once the targets are loaded (`openPacingLayer`)
  const http =
    cassettes !== undefined && (inProcess || proxy)
      ? await (
          await import('../replay/http/http-layer.ts')
        ).HttpLayer.open({ cassettes, limiters, inProcess, proxy })
      : undefined
  // the OpenTelemetry SDK and src/traces load only when some case captures its spans, or for `--otel`
  const traced = run.traces.all || run.suites.some((suite) => suite.cases.traced)
  // one tracer provider for the process: under `--otel` it is the exporter's, with trace capture's processor added
  const otel =
    options.otel === undefined
      ? undefined
      : (await import('../telemetry/otlp-export.ts')).startOtlpExport(options.otel.url, redactor, {
          warn: options.otel.warn,
          ...(traced && {
            spanProcessors: [(await import('../traces/capture-processor.ts')).traceCaptureProcessor()],
          }),
        })
  let traces: TraceHub | undefined
  try {
    traces = traced
      ? await (
          await import('../traces/hub.ts')
        ).startTraceHub(
          run.traces.port,
          (message) => {
            process.stderr.write(`Warning: ${message}\n`)
          },
          otel ? 'run' : 'own',
        )
      : undefined
  } catch (error) {
    await otel?.shutdown()
    throw error
  }
  return {
    redactor,
    limiters,
    cassettes,
    keyless: (model) => cassettes?.keyless(model) ?? { serves: false },
    http,
    traces,
    otel,
  }
}

/**
 * For pacing alone (no cassettes), opens the HTTP layer where a loaded target may call a model through an SDK of its
 * own: a framework's agent, a function of a suite that names its `model:`, a target given in code (intercepted in
 * this process), and a command target (through the loopback proxy its base URLs point at, which passes calls
 * through paced). The interceptor costs ~50 ms of start-up, so our engine's agents (paced at the model layer) and
 * function suites that name no model (most compute their answer) never load it; the proxy loads no interceptor.
 */
export async function openPacingLayer(
  services: RunServices,
  run: ResolvedRun,
  targets: readonly Target[],
): Promise<void> {
  if (services.http !== undefined || services.limiters === undefined) return
  const inProcess = run.suites.some((suite, index) => {
    if (targets[index]?.pacedByEngine === true) return false
    if (run.targets?.has(suite.file) === true) return true
    return suite.target.type === 'agent' || (suite.target.type === 'function' && suite.model !== undefined)
  })
  const proxy = run.suites.some(
    (suite) => suite.target.type === 'command' && run.targets?.has(suite.file) !== true,
  )
  if (!inProcess && !proxy) return
  const { HttpLayer } = await import('../replay/http/http-layer.ts')
  services.http = await HttpLayer.open({
    cassettes: undefined,
    limiters: services.limiters,
    inProcess,
    proxy,
  })
}

export async function closeServices(services: RunServices): Promise<void> {
  await services.http?.close()
  await services.cassettes?.close()
  await services.traces?.close()
}
