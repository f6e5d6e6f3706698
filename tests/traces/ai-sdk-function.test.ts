import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runSuite } from '../../src/runner/run-suite.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, readResults, suiteOf, tempDir } from '../runner/helpers.ts'
import { gpt41MiniCost, orderModel } from './helpers.ts'

const fixture = join(import.meta.dirname, 'fixtures', 'ai-sdk-text.ts')

describe('an AI SDK agent as a function target returning only text, with `trace: true`', () => {
  let server: MockLlmServer
  beforeAll(async () => {
    server = await startMockLlmServer({ handler: orderModel })
    process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  })
  afterAll(() => server.close())

  test('its spans give trajectory, tool_args and cost_usd_lte what they need, with no glue', async () => {
    const cost = gpt41MiniCost({ input: 300, cached: 40, output: 30 })
    const suite = suiteOf(
      [
        caseOf('traced', {
          input: 'Where is order A1?',
          trace: true,
          expect: {
            trajectory: ['lookup_order'],
            tool_args: { lookup_order: { id: 'A1' } },
            cost_usd_lte: cost * 1.0001,
            iterations_lte: 2,
          },
        }),
      ],
      { target: { type: 'function', module: fixture, exportName: 'default' } },
    )
    const report = await runSuite(suite, { outDir: tempDir() })
    const [result] = readResults(report.resultsFile)

    expect(result?.status).toBe('passed')
    if (result?.status !== 'passed') return
    const { transcript } = result
    expect(transcript.source).toBe('traces')
    expect(transcript.output).toBe('Order A1 is on its way.')
    expect(transcript.toolCalls).toMatchObject([
      { name: 'lookup_order', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' } },
    ])
    expect(transcript.iterations).toBe(2)
    expect(transcript.usage).toEqual({
      inputTokens: 300,
      outputTokens: 30,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
    })
    expect(transcript.costUsd).toBeCloseTo(cost, 12)
    expect(transcript.spans?.spans.map((span) => span.name)).toEqual([
      'ai.generateText',
      'ai.generateText.doGenerate',
      'ai.toolCall',
      'ai.generateText.doGenerate',
    ])
  })

  test('without trace capture the same target reports no tool calls, and the check says how to turn it on', async () => {
    const suite = suiteOf(
      [caseOf('untraced', { input: 'Where is order A2?', expect: { tool: 'lookup_order' } })],
      { target: { type: 'function', module: fixture, exportName: 'default' } },
    )
    const report = await runSuite(suite, { outDir: tempDir() })
    const [result] = readResults(report.resultsFile)

    expect(result?.status).toBe('errored')
    expect(result?.status === 'errored' && result.error.message).toContain('trace: true')
  })

  test('spans of concurrent cases never mix: each case sees only its own order', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `B${String(i)}`)
    const suite = suiteOf(
      ids.map((id) =>
        caseOf(id, { input: `Where is order ${id}?`, expect: { tool_args: { lookup_order: { id } } } }),
      ),
      { target: { type: 'function', module: fixture, exportName: 'default' } },
    )
    const report = await runSuite(suite, { outDir: tempDir(), concurrency: 6, trace: true })
    const results = readResults(report.resultsFile)

    expect(results.map((result) => result.status)).toEqual(ids.map(() => 'passed'))
    for (const result of results) {
      if (result.status !== 'passed') continue
      expect(result.transcript.toolCalls).toHaveLength(1)
      expect(result.transcript.spans?.total).toBe(4)
    }
    const traceIds = results.map((result) => result.status === 'passed' && result.transcript.spans?.traceId)
    expect(new Set(traceIds).size).toBe(ids.length)
  })
})
