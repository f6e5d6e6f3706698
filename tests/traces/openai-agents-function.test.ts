import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { runSuite } from '../../src/runner/run-suite.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, readResults, suiteOf, tempDir } from '../runner/helpers.ts'
import { gpt41MiniCost, orderModel } from './helpers.ts'

let server: MockLlmServer
beforeAll(async () => {
  server = await startMockLlmServer({ handler: orderModel })
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
})
afterAll(() => server.close())

test('an Agents SDK agent as a function target returning text: its own trace, mapped, serves the checks', async () => {
  const cost = gpt41MiniCost({ input: 300, cached: 40, output: 30 })
  const ids = ['D1', 'D2', 'D3']
  const suite = suiteOf(
    ids.map((id) =>
      caseOf(id, {
        input: `Where is order ${id}?`,
        trace: true,
        expect: {
          trajectory: ['lookup_order'],
          tool_args: { lookup_order: { id } },
          cost_usd_lte: cost * 1.0001,
        },
      }),
    ),
    {
      target: {
        type: 'function',
        module: join(import.meta.dirname, 'fixtures', 'openai-agents-text.ts'),
        exportName: 'default',
      },
    },
  )
  const report = await runSuite(suite, { outDir: tempDir(), concurrency: 3 })
  const results = readResults(report.resultsFile)

  expect(results.map((result) => [result.caseId, result.status]).sort()).toEqual(
    ids.map((id) => [id, 'passed']),
  )
  const d1 = results.find((result) => result.caseId === 'D1')
  if (d1?.status !== 'passed') return
  expect(d1.transcript.source).toBe('traces')
  expect(d1.transcript.toolCalls).toMatchObject([
    { name: 'lookup_order', args: { id: 'D1' }, result: { id: 'D1', status: 'shipped' } },
  ])
  expect(d1.transcript.iterations).toBe(2)
  expect(d1.transcript.usage).toEqual({
    inputTokens: 300,
    outputTokens: 30,
    cacheReadTokens: 40,
    cacheWriteTokens: 0,
  })
  expect(d1.transcript.costUsd).toBeCloseTo(cost, 12)
})
