import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, cassetteLines, runInto, stable, tempDir } from './helpers.ts'
import { sdkSuite, startOrderModel } from './http-helpers.ts'

let server: MockLlmServer
beforeEach(async () => {
  server = await startOrderModel()
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  process.env.EVALS_TEST_ANTHROPIC_URL = server.anthropicBaseURL
  process.env.EVALS_TEST_API_KEY = 'sk-test-0123456789abcdef'
})
afterEach(async () => {
  // a test that replays has stopped it already
  await server.close().catch(() => undefined)
  delete process.env.EVALS_TEST_OPENAI_URL
  delete process.env.EVALS_TEST_ANTHROPIC_URL
  delete process.env.EVALS_TEST_API_KEY
})

const orderCases = () => [
  caseOf('order', { input: 'Where is order A1?', expect: { tool: 'lookup_order', contains: 'shipped' } }),
  caseOf('echo', { input: 'Hello there', expect: { contains: 'Echo' } }),
]

/** Records the suite, stops the server and removes the key, replays, and returns both runs' results. */
async function recordThenReplay(exportName: string, cases = orderCases()) {
  const dir = tempDir()
  const suite = sdkSuite(dir, exportName, cases)
  const recorded = await runInto(dir, suite, { cassettes: 'record' })
  const calls = server.journal.length
  await server.close()
  delete process.env.EVALS_TEST_API_KEY
  const replayed = await runInto(dir, suite, { cassettes: 'replay' })
  return { dir, recorded, replayed, calls }
}

describe('record and replay under SDKs the engine does not own', () => {
  test('an AI SDK generateText agent with a tool: recorded, then replayed with the server stopped and no key', async () => {
    const { dir, recorded, replayed, calls } = await recordThenReplay('aiSdkAnswer')

    expect(recorded.results.map((result) => [result.caseId, result.status])).toEqual([
      ['echo', 'passed'],
      ['order', 'passed'],
    ])
    expect(calls).toBe(3)
    expect(stable(replayed.results)).toEqual(stable(recorded.results))
    const lines = cassetteLines(dir, 'sdk')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatchObject({
      kind: 'http',
      request: { method: 'POST', host: '127.0.0.1', path: '/v1/responses' },
    })
    expect(JSON.stringify(lines)).not.toContain('sk-test-0123456789abcdef')
  }, 60_000)

  test('an OpenAI Agents SDK agent: recorded, then replayed with identical verdicts', async () => {
    const { recorded, replayed, calls } = await recordThenReplay('agentsAnswer')

    expect(recorded.results.map((result) => result.status)).toEqual(['passed', 'passed'])
    expect(calls).toBe(3)
    expect(stable(replayed.results)).toEqual(stable(recorded.results))
  }, 60_000)

  test('a streamed reply is recorded as its events and replayed as a stream', async () => {
    const cases = [caseOf('hello', { input: 'Hello stream', expect: { contains: 'Echo: Hello stream' } })]
    const { dir, recorded, replayed } = await recordThenReplay('aiSdkStreamed', cases)

    expect(recorded.results[0]?.status).toBe('passed')
    const [line] = cassetteLines(dir, 'sdk') as [
      { response: { chunks: string[]; headers: Record<string, string> } },
    ]
    expect(line.response.headers['content-type']).toContain('text/event-stream')
    expect(line.response.chunks.length).toBeGreaterThan(2)
    expect(line.response.chunks.at(-1)).toBe('data: [DONE]\n\n')
    expect(stable(replayed.results)).toEqual(stable(recorded.results))
  }, 60_000)

  test('the Anthropic SDK streaming: its `event:` / `data:` pairs are recorded one event a chunk and replayed', async () => {
    const cases = [caseOf('hello', { input: 'Hello Claude', expect: { contains: 'Echo: Hello Claude' } })]
    const { dir, recorded, replayed } = await recordThenReplay('anthropicStreamed', cases)

    expect(recorded.results[0]?.status).toBe('passed')
    const [line] = cassetteLines(dir, 'sdk') as [
      { request: { path: string }; response: { chunks: string[] } },
    ]
    expect(line.request.path).toBe('/v1/messages')
    expect(line.response.chunks[0]).toMatch(/^event: message_start\ndata: \{/)
    expect(line.response.chunks.at(-1)).toMatch(/^event: message_stop\ndata: .*\n\n$/)
    expect(stable(replayed.results)).toEqual(stable(recorded.results))
  }, 60_000)

  test('two cases sending the same request at once each keep their own reply', async () => {
    await server.close()
    let replies = 0
    server = await startMockLlmServer({
      handler: () => ({ text: `Reply ${String(++replies)}`, latencyMs: 50 }),
    })
    process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
    const cases = ['a', 'b', 'c'].map((id) =>
      caseOf(id, { input: 'Same question', expect: { contains: 'Reply' } }),
    )
    const { recorded, replayed } = await recordThenReplay('aiSdkAnswer', cases)

    const outputs = (results: typeof recorded.results) =>
      results.map((result) => (result.status === 'passed' ? result.transcript.output : result.status))
    expect(new Set(outputs(recorded.results)).size).toBe(3)
    expect(outputs(replayed.results)).toEqual(outputs(recorded.results))
  }, 60_000)
})
