import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runSuite } from '../../src/runner/run-suite.ts'
import { startOtlpReceiver } from '../../src/traces/receiver.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, readResults, suiteOf, tempDir } from '../runner/helpers.ts'
import { gpt41MiniCost, orderModel } from './helpers.ts'
import { plainNodeScript } from '../setup/plain-node-script.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
const cost = gpt41MiniCost({ input: 300, cached: 40, output: 30 })

/** A port free now on 127.0.0.1, for the run's receiver that the service exports to. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('an agent HTTP service in a child process, instrumented with the OpenTelemetry SDK for Node', () => {
  let llm: MockLlmServer
  let service: ChildProcess
  let serviceUrl: string
  let receiverPort: number
  beforeAll(async () => {
    llm = await startMockLlmServer({ handler: orderModel })
    receiverPort = await freePort()
    service = spawn(process.execPath, [await plainNodeScript(join(fixtures, 'otel-http-service.ts'))], {
      env: {
        ...process.env,
        LLM_BASE_URL: llm.openaiBaseURL,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${String(receiverPort)}/v1/traces`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const port = await new Promise<string>((resolve) =>
      service.stdout?.once('data', (data) => {
        resolve(String(data).trim())
      }),
    )
    serviceUrl = `http://127.0.0.1:${port}/`
  })
  afterAll(async () => {
    service.kill()
    await llm.close()
  })

  test('its exported spans reach the run under the case traceparent, for trajectory, tool_args and cost_usd_lte', async () => {
    const suite = suiteOf(
      ['A1', 'X'].map((id) =>
        caseOf(id, {
          input: `Where is order ${id}?`,
          expect: {
            trajectory: ['lookup_order'],
            tool_args: { lookup_order: { id } },
            cost_usd_lte: cost * 1.0001,
            ...(id === 'X' && { error_spans_lte: 0 }),
          },
        }),
      ),
      {
        target: {
          type: 'http',
          url: serviceUrl,
          method: 'POST',
          headers: {},
          body: { input: '{{input}}' },
          output: 'output',
        },
        traceSettings: { port: receiverPort },
      },
    )
    const report = await runSuite(suite, { outDir: tempDir(), trace: true, concurrency: 2 })
    const results = readResults(report.resultsFile)
    const [a1, x] = ['A1', 'X'].map((id) => results.find((result) => result.caseId === id))

    expect(a1?.status).toBe('passed')
    if (a1?.status !== 'passed') return
    expect(a1.transcript.source).toBe('traces')
    expect(a1.transcript.output).toBe('Order A1 is on its way.')
    expect(a1.transcript.toolCalls).toMatchObject([
      { name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } },
    ])
    expect(a1.transcript.iterations).toBe(2)
    expect(a1.transcript.costUsd).toBeCloseTo(cost, 12)
    expect(a1.transcript.spans?.spans.map((span) => span.name).sort()).toEqual([
      'chat gpt-4.1-mini',
      'chat gpt-4.1-mini',
      'execute_tool lookup_order',
      'invoke_agent orders',
    ])
    // the tool failed: the error span fails the case, with the span and its message as the evidence
    expect(x?.status).toBe('failed')
    if (x?.status !== 'failed') return
    expect(x.transcript.toolCalls).toMatchObject([{ name: 'lookup_order', error: 'no order X' }])
    expect(x.verdicts.find((verdict) => verdict.evaluator === 'error_spans_lte')?.reason).toBe(
      '1 of 4 spans ended with an error, more than 0: `execute_tool lookup_order` (no order X)',
    )
  })
})

describe('a command target in another language (python3) posting OTLP/JSON', () => {
  test('gets TRACEPARENT and the endpoint in its environment; its OpenInference spans become the transcript', async () => {
    const suite = suiteOf(
      [
        caseOf('py', {
          input: 'Where is order C3?',
          trace: true,
          expect: {
            tool_args: { lookup_order: { id: 'C3' } },
            cost_usd_lte: cost * 1.0001,
            span_count: { name: 'ChatOpenAI', min: 2, max: 2 },
          },
        }),
      ],
      {
        target: {
          type: 'command',
          command: `python3 ${join(fixtures, 'otlp-agent.py')}`,
          input: 'stdin',
          cwd: fixtures,
        },
      },
    )
    const report = await runSuite(suite, { outDir: tempDir() })
    const [result] = readResults(report.resultsFile)

    expect(result?.status).toBe('passed')
    if (result?.status !== 'passed') return
    expect(result.transcript.output).toBe('Order C3 is on its way.')
    expect(result.transcript.usage).toEqual({
      inputTokens: 300,
      outputTokens: 30,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
    })
    expect(result.transcript.costUsd).toBeCloseTo(cost, 12)
  })
})

describe('the OTLP receiver', () => {
  test('answers protobuf with 415 naming http/json, and a taken port with a ConfigError', async () => {
    const receiver = await startOtlpReceiver(() => undefined)
    try {
      const response = await fetch(receiver.tracesUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf' },
        body: new Uint8Array([1, 2, 3]),
      })
      expect(response.status).toBe(415)
      expect(((await response.json()) as { message: string }).message).toContain(
        'OTEL_EXPORTER_OTLP_PROTOCOL=http/json',
      )
      const port = Number(new URL(receiver.endpoint).port)
      await expect(startOtlpReceiver(() => undefined, port)).rejects.toThrow(
        `port ${String(port)} of 127.0.0.1 is taken`,
      )
    } finally {
      await receiver.close()
    }
  })
})
