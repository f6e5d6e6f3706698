import { createServer, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import type { CaseResult } from '../../src/model/case-result.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { runCli } from '../e2e/helpers.ts'
import { orderModel } from './helpers.ts'

const fixture = join(import.meta.dirname, 'fixtures', 'ai-sdk-text.ts')

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
}

let receiver: Server | undefined
let model: MockLlmServer | undefined
let dir: string | undefined
afterEach(async () => {
  receiver?.close()
  await model?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** A loopback OTLP/HTTP receiver standing in for the user's collector: keeps the JSON spans sent to /v1/traces. */
async function startCollector(): Promise<{ url: string; spans: OtlpSpan[] }> {
  const spans: OtlpSpan[] = []
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const exported = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }
      for (const resource of exported.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans)
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return { url: `http://127.0.0.1:${String(port)}/v1/traces`, spans }
}

test('`--otel` with `--trace`: an AI SDK agent’s spans reach the collector and its case’s transcript alike', async () => {
  model = await startMockLlmServer({ handler: orderModel })
  const collector = await startCollector()
  dir = mkdtempSync(join(tmpdir(), 'evals-otel-capture-'))
  const file = join(dir, 'orders.yaml')
  writeFileSync(
    file,
    [
      'suite: orders',
      `target: { function: ${fixture} }`,
      'cases:',
      '  - id: a1',
      '    input: Where is order A1?',
      '    expect:',
      '      tool: lookup_order',
      '      trajectory: [lookup_order]',
      '      tool_args: { lookup_order: { id: A1 } }',
      '',
    ].join('\n'),
  )
  const out = join(dir, 'reports')
  const run = await runCli(['run', file, '--trace', '--otel', collector.url, '--out', out], {
    env: { EVALS_TEST_OPENAI_URL: model.openaiBaseURL },
  })

  expect(run.stderr).toBe('')
  expect(run.code, run.stdout).toBe(0)
  // the case's transcript has the tool call, read from the spans
  const { readdirSync } = await import('node:fs')
  const [runDir] = readdirSync(out).filter((name) => !name.includes('.'))
  const [result] = readFileSync(join(out, runDir!, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CaseResult)
  expect(result?.status).toBe('passed')
  if (result?.status !== 'passed') return
  expect(result.transcript.source).toBe('traces')
  expect(result.transcript.toolCalls).toMatchObject([{ name: 'lookup_order', args: { id: 'A1' } }])
  // and the collector got the same spans, under the case's own span
  const root = collector.spans.find((span) => span.name === 'case orders/a1')
  expect(root).toBeDefined()
  const inTrace = collector.spans.filter((span) => span.traceId === root?.traceId)
  expect(inTrace.map((span) => span.name).sort()).toEqual(
    [
      'case orders/a1',
      'ai.generateText',
      'ai.generateText.doGenerate',
      'ai.generateText.doGenerate',
      'ai.toolCall',
    ].sort(),
  )
  expect(inTrace.find((span) => span.name === 'ai.generateText')?.parentSpanId).toBe(root?.spanId)
}, 90_000)
