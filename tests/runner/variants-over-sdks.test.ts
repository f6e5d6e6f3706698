import { afterEach, expect, test } from 'vitest'
import { Agent } from '../../src/engine/agent.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { registerProvider } from '../../src/providers/registry.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { wrapFunction } from '../../src/targets/function.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, readResults, suiteOf, targetsFor, tempDir } from './helpers.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

test('a three-variant matrix runs through the real openai and @anthropic-ai/sdk clients and `local`', async () => {
  // the OpenAI-wire model answers right, the Anthropic-wire model wrong: the comparison must tell them apart
  server = await startMockLlmServer({
    handler: (request) => ({ text: request.api === 'openai' ? 'The answer is yes.' : 'The answer is no.' }),
  })
  const live = server
  registerProvider(
    'mock-openai',
    (model) =>
      new OpenAiProvider({ model, apiKey: 'sk-test', baseURL: live.openaiBaseURL, timeoutMs: 5_000 }),
  )
  registerProvider(
    'mock-anthropic',
    (model) =>
      new AnthropicProvider({ model, apiKey: 'ant-test', baseURL: live.anthropicBaseURL, timeoutMs: 5_000 }),
  )
  const target = wrapFunction(
    'agent:answer',
    (input, context) =>
      new Agent({ model: context.model ?? 'local', instructions: 'Answer yes or no.' }).run(input, {
        signal: context.signal,
      }),
    'agent',
  )
  const cases = Array.from({ length: 10 }, (_, index) =>
    caseOf(`q${String(index)}`, { input: `Question ${String(index)}?`, expect: { contains: 'yes' } }),
  )
  const suite = suiteOf(cases, {
    variants: [
      { name: 'openai', model: 'mock-openai:gpt-test', baseline: true },
      { name: 'anthropic', model: 'mock-anthropic:claude-test' },
      { name: 'local', model: 'local' },
    ],
  })
  const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })

  const rows = readResults(report.resultsFile)
  expect(rows).toHaveLength(30)
  expect(live.journal.filter((request) => request.api === 'openai')).toHaveLength(10)
  expect(live.journal.filter((request) => request.api === 'anthropic')).toHaveLength(10)
  const byVariant = (variant: string) =>
    rows.filter((row) => row.variant === variant).map((row) => row.status === 'passed')
  expect(byVariant('openai')).toEqual(Array(10).fill(true))
  expect(byVariant('anthropic')).toEqual(Array(10).fill(false))
  expect(
    report.variants?.variants.map((entry) => [entry.variant, entry.model, entry.accuracy?.value]),
  ).toEqual([
    ['openai', 'mock-openai:gpt-test', 1],
    ['anthropic', 'mock-anthropic:claude-test', 0],
    ['local', 'local', expect.any(Number)],
  ])
  expect(report.variants?.pairs[0]).toMatchObject({ a: 'openai', b: 'anthropic', verdict: 'a-better' })
  expect(report.variants?.variants[0]?.tokensPerCase).toBeGreaterThan(0)
  expect(report.gate?.decision).toBe('fail')
})
