import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { exitCodeOf } from '../../src/cli/exit-code.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import type { TargetSpec } from '../../src/targets/target.ts'
import { caseOf, readResults, suiteOf, targetsFor, tempDir } from './helpers.ts'
import { wrapFunction } from '../../src/targets/function.ts'
import { createTarget } from '../../src/targets/index.ts'

const engineAgent: TargetSpec = { type: 'agent', module: `${import.meta.dirname}/fixtures/engine-agent.ts` }
let server: MockLlmServer
beforeAll(async () => {
  server = await startMockLlmServer()
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  // the first load compiles the agent module and the engine it imports (cached after): on a cold, busy CI machine
  // that alone can outlast a test's time limit, so it happens here, under the hook's
  await (await createTarget(engineAgent)).close?.()
}, 120_000)
afterAll(() => server.close())
beforeEach(() => {
  expect(server.remaining).toBe(0)
})

async function run(fields: Parameters<typeof caseOf>[1], target: TargetSpec = engineAgent) {
  const suite = suiteOf([caseOf('case', fields)], { target })
  const report = await runSuite(suite, { outDir: tempDir() })
  const [result] = readResults(report.resultsFile)
  if (!result) throw new Error('no result')
  return { result, exitCode: exitCodeOf(report) }
}

const lookup = (id: string) => ({ toolCalls: [{ name: 'lookup_order', args: { id } }] })

describe("the agent's own stops fail the case, with the stop as evidence (exit code 1)", () => {
  test('out of iterations', async () => {
    server.enqueue(lookup('A1'), lookup('A1'), lookup('A1'))
    const { result, exitCode } = await run({ input: 'Where is A1?', expect: { tools: ['lookup_order'] } })

    expect(exitCode).toBe(1)
    expect(result.status === 'failed' && result.verdicts).toEqual([
      { evaluator: 'tools', pass: true, reason: 'agent called `lookup_order`', weight: 1 },
      {
        evaluator: 'stop_reason',
        pass: false,
        reason:
          'the agent stopped without an answer (`max_iterations`): Stopped after 3 model calls (maxIterations) without a final answer.',
        details: {
          stopReason: 'max_iterations',
          detail: 'Stopped after 3 model calls (maxIterations) without a final answer.',
        },
        weight: 1,
      },
    ])
  })

  test('a tool out of its retry budget (was `errored`, exit code 2)', async () => {
    server.enqueue(lookup('X'), lookup('X'))
    const { result, exitCode } = await run({ input: 'Where is X?' })

    expect(exitCode).toBe(1)
    expect(result.status === 'failed' && result.verdicts[0]?.reason).toBe(
      'the agent stopped without an answer (`tool_failures`): Tool `lookup_order` failed 2 times in a row (retry budget 1); last error: Tool `lookup_order` failed: no order X',
    )
  })

  test('a reply cut off at the token limit (was graded as a final answer)', async () => {
    server.enqueue({ text: 'Order A1 has', finishReason: 'length' })
    const { result, exitCode } = await run({ input: 'Where is A1?', expect: { contains: 'A1' } })

    expect(exitCode).toBe(1)
    expect(result.status === 'failed' && result.verdicts.map((verdict) => verdict.evaluator)).toEqual([
      'contains',
      'stop_reason',
    ])
  })

  test('`stop_reason:` grades the stop instead, for a case that expects it', async () => {
    server.enqueue(lookup('A1'), lookup('A1'), lookup('A1'))
    const { result } = await run({ input: 'Loop', expect: { stop_reason: 'max_iterations' } })

    expect(result.status).toBe('passed')
  })
})

describe('what is not the agent’s quality errors the case (exit code 2)', () => {
  test('the model API failing for good, after its retries', async () => {
    server.enqueue({ status: 500 }, { status: 500 })
    const { result, exitCode } = await run({ input: 'Where is A1?' })

    expect(exitCode).toBe(2)
    expect(result.status).toBe('errored')
  })

  test('a check that needs tool calls the target does not report (was a pass of `tools: []`)', async () => {
    const suite = suiteOf([caseOf('case', { input: 'Where is A1?', expect: { tools: [] } })])
    // a function that ran tools inside but returns only its text
    const target = wrapFunction('function:answer', () => 'Order A1 has shipped.', 'answer')
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
    const [result] = readResults(report.resultsFile)

    expect(exitCodeOf(report)).toBe(2)
    expect(result?.status === 'errored' && result.error.message).toBe(
      '`tools` needs the tool calls, which this target does not report (transcript source `target`): give the framework agent itself as `agent:`, return `toolCalls` with the output (or a framework result through a mapper such as `fromAiSdk`), or set `tool_calls:` on an http target, or capture its OpenTelemetry spans with `trace: true` (`--trace`).',
    )
  })
})

describe('conversations carry the whole history to our engine', () => {
  test('turn 2 is sent turn 1’s tool call and its result, and does not look the order up again', async () => {
    server.enqueue(lookup('A1'), { text: 'A1 has shipped.' }, { text: 'Yes, it shipped.' })
    const { result } = await run({
      input: '',
      turns: [
        { user: 'Where is A1?', expect: { tools: ['lookup_order'] } },
        { user: 'Are you sure?', expect: { tools: [] } },
      ],
    })

    expect(result.status).toBe('passed')
    const third = server.journal.at(-1)?.body as { messages: { role: string }[] }
    expect(third.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
  })
})
