import { createServer, type Server } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeAll, expect, test, vi } from 'vitest'
import type { CaseResult } from '../../src/model/case-result.ts'
import type { PairId } from '../../src/runner/plan/run-settings.ts'
import { startOtlpExport } from '../../src/telemetry/otlp-export.ts'
import { createRedactor } from '../../src/util/redact.ts'
import { bin, ensureBuilt, repo, runCli, runShell } from '../e2e/helpers.ts'

beforeAll(() => {
  ensureBuilt()
}, 120_000)

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[]
}

let receiver: Server | undefined
afterEach(() => {
  receiver?.close()
})

/** A loopback OTLP/HTTP receiver: collects the JSON export requests sent to /v1/traces. */
async function startReceiver(): Promise<{ url: string; spans: OtlpSpan[]; serviceNames: string[] }> {
  const spans: OtlpSpan[] = []
  const serviceNames: string[] = []
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const exported = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: OtlpSpan['attributes'] }
          scopeSpans: { spans: OtlpSpan[] }[]
        }[]
      }
      for (const resourceSpans of exported.resourceSpans) {
        const service = resourceSpans.resource.attributes.find((a) => a.key === 'service.name')
        serviceNames.push(service?.value.stringValue ?? '')
        for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans)
      }
      response.writeHead(request.url === '/v1/traces' ? 200 : 404, { 'content-type': 'application/json' })
      response.end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return { url: `http://127.0.0.1:${port}/v1/traces`, spans, serviceNames }
}

function attribute(span: OtlpSpan, key: string): string | number | undefined {
  const value = span.attributes.find((candidate) => candidate.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}

function caseFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-otel-'))
  const file = join(dir, 'cases.json')
  writeFileSync(
    file,
    JSON.stringify({
      suite: 'weather',
      target: { agent: join(repo, 'tests', 'fixtures', 'otel', 'weather-agent.ts') },
      cases: [
        { id: 'paris', input: 'Weather and time in Paris?', expect: { contains: 'Sunny' } },
        { id: 'again', input: 'And now?', expect: { contains: 'Sunny' } },
      ],
    }),
  )
  return file
}

test('`--otel` sends each case as one trace: case → invoke_agent → two chat and two execute_tool spans', async () => {
  const otlp = await startReceiver()

  const run = await runCli(
    ['run', caseFile(), '--reporter', 'console', '--otel', otlp.url, '--concurrency', '1'],
    {
      cwd: tmpdir(),
    },
  )

  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(new Set(otlp.serviceNames)).toEqual(new Set(['evals']))
  const roots = otlp.spans.filter((span) => span.name.startsWith('case '))
  expect(roots.map((span) => span.name).sort()).toEqual(['case weather/again', 'case weather/paris'])
  expect(new Set(roots.map((span) => span.traceId)).size).toBe(2)
  for (const root of roots) {
    expect(root.parentSpanId ?? '').toBe('')
    expect(attribute(root, 'evals.case.status')).toBe('passed')
    const inTrace = otlp.spans.filter((span) => span.traceId === root.traceId)
    const agentRun = inTrace.find((span) => span.name === 'invoke_agent weather')
    expect(agentRun?.parentSpanId).toBe(root.spanId)
    const children = inTrace.filter((span) => span.parentSpanId === agentRun?.spanId)
    expect(children.map((span) => span.name).sort()).toEqual([
      'chat gpt-4.1-mini',
      'chat gpt-4.1-mini',
      'execute_tool get_time',
      'execute_tool get_weather',
    ])
    expect(
      children
        .filter((span) => span.name.startsWith('execute_tool'))
        .map((span) => attribute(span, 'gen_ai.tool.name'))
        .sort(),
    ).toEqual(['get_time', 'get_weather'])
    expect(
      attribute(
        children.find((span) => span.name.startsWith('chat'))!,
        'gen_ai.request.model',
      ),
    ).toBe('gpt-4.1-mini')
    expect(inTrace).toHaveLength(6)
  }
}, 120_000)

test('`--otel` with something other than an http(s) URL says what it takes', async () => {
  const run = await runCli(['run', caseFile(), '--otel', 'localhost:4318'])

  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    'evals run: `--otel` takes an OTLP/HTTP traces URL such as http://localhost:4318/v1/traces, got "localhost:4318".\n',
  )
})

test('`evals --version` and a run without `--otel` load no OpenTelemetry package', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-otel-startup-'))
  const hook = join(dir, 'hook.mjs')
  writeFileSync(
    hook,
    `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write('MOD ' + url + '\\\\n')
  return next(url, context)
}\`))
`,
  )
  const traced = (stderr: string): string[] =>
    stderr.split('\n').filter((line) => line.startsWith('MOD ') && line.includes('/@opentelemetry/'))

  const version = await runShell(process.execPath, ['--import', pathToFileURL(hook).href, bin, '--version'], {
    cwd: dir,
  })
  const plain = await runShell(
    process.execPath,
    ['--import', pathToFileURL(hook).href, bin, 'run', caseFile(), '--reporter', 'console'],
    { cwd: dir },
  )

  expect(version.code).toBe(0)
  expect(traced(version.stderr)).toEqual([])
  expect(plain.code).toBe(0)
  // the agent target loads the engine, which reads the API's global registry to see whether a provider is
  // registered: with none, neither the API nor the SDK loads
  expect(traced(plain.stderr)).toEqual([])
  expect(
    plain.stderr
      .split('\n')
      .filter((line) => line.startsWith('MOD ') && line.includes('/telemetry/otlp-export')),
  ).toEqual([])
}, 120_000)

test('`--otel` to an endpoint nobody listens on says so once, and at the end how many spans were lost', async () => {
  // a port that was free a moment ago: connections to it are refused
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const address = closed.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await new Promise((resolve) => closed.close(resolve))
  const url = `http://127.0.0.1:${String(port)}/v1/traces`
  const warnings: string[] = []
  // the exporter's own setting (default 10 s) bounds its retries: the test need not wait them out
  vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', '300')
  const tracing = startOtlpExport(url, createRedactor(), { warn: (message) => warnings.push(message) })
  vi.unstubAllEnvs()
  const job = { suite: 's', caseId: 'c', trial: 0 } as PairId
  await tracing.aroundCase(job, () => Promise.resolve({ status: 'passed' } as CaseResult))

  await tracing.shutdown()

  expect(warnings).toEqual([
    `--otel: could not send spans to ${url}: connect ECONNREFUSED 127.0.0.1:${String(port)}`,
    `--otel: 1 span not delivered to ${url} (connect ECONNREFUSED 127.0.0.1:${String(port)}); check that an OTLP/HTTP receiver listens there.`,
  ])
}, 30_000)
