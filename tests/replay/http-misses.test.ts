import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { runCli } from '../e2e/helpers.ts'
import type { MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, cassetteLines, runInto, tempDir } from './helpers.ts'
import { sdkAgents, sdkSuite, startOrderModel } from './http-helpers.ts'

// a GitHub token's shape (secretlint's rule), built here so no scanner flags this file
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7H8`

let server: MockLlmServer
beforeEach(async () => {
  server = await startOrderModel()
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  process.env.EVALS_TEST_API_KEY = 'sk-test-0123456789abcdef'
})
afterEach(async () => {
  await server.close()
  delete process.env.EVALS_TEST_OPENAI_URL
  delete process.env.EVALS_TEST_API_KEY
})

describe('replaying a request the cassette does not hold', () => {
  test('errors the case naming the cassette, the request and what changed, and calls nothing live', async () => {
    const dir = tempDir()
    const recorded = [caseOf('echo', { input: 'Hello there', expect: { contains: 'Echo' } })]
    await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', recorded), { cassettes: 'record' })
    const calls = server.journal.length

    const changed = [caseOf('echo', { input: 'Hello here', expect: { contains: 'Echo' } })]
    const { results } = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', changed), { cassettes: 'replay' })

    expect(server.journal.length).toBe(calls)
    const [result] = results
    expect(result?.status).toBe('errored')
    if (result?.status !== 'errored') return
    expect(result.error.code).toBe('EVALS_REPLAY_MISS')
    expect(result.error.message).toContain(
      `Replay miss: no recorded \`POST 127.0.0.1/v1/responses\` in ${join(dir, '__cassettes__', 'sdk.jsonl')} for this request (case \`echo\`, trial 0).`,
    )
    expect(result.error.message).toContain('~ input[0].content[0].text: "Hello there" → "Hello here"')
    expect(result.error.message).toContain('Record it with `--record` or `--replay auto`.')
  }, 60_000)

  test('errors the case even when the agent swallows the refused call and answers anyway', async () => {
    const dir = tempDir()
    const cases = [caseOf('echo', { input: 'Hello there', expect: { contains: 'Sorry' } })]
    const { results } = await runInto(dir, sdkSuite(dir, 'aiSdkForgiving', cases), { cassettes: 'replay' })

    expect(results[0]?.status).toBe('errored')
    expect(server.journal).toHaveLength(0)
  }, 60_000)

  test('--replay auto calls live for the miss and records it; the next --replay serves it', async () => {
    const dir = tempDir()
    const cases = [caseOf('echo', { input: 'Hello there', expect: { contains: 'Echo' } })]
    const first = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', cases), { cassettes: 'auto' })
    const calls = server.journal.length
    const again = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', cases), { cassettes: 'replay' })

    expect(calls).toBe(1)
    expect([first.results[0]?.status, again.results[0]?.status]).toEqual(['passed', 'passed'])
    expect(server.journal.length).toBe(calls)
  }, 60_000)
})

describe('what a recording holds', () => {
  test('secrets in a recorded body go through the run’s redactor; the API key is never stored', async () => {
    const dir = tempDir()
    const cases = [caseOf('secret', { input: `Repeat ${GITHUB_TOKEN} please` })]
    await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', cases), { cassettes: 'record' })

    const text = readFileSync(join(dir, '__cassettes__', 'sdk.jsonl'), 'utf8')
    expect(text).toContain('"kind":"http"')
    expect(text).not.toContain(GITHUB_TOKEN)
    expect(text).not.toContain('sk-test-0123456789abcdef')
    expect(text).toContain('Repeat [redacted] please')
  }, 60_000)
})

describe('a --record run that recorded nothing', () => {
  test('says so in one line at the end of the run', async () => {
    const dir = tempDir()
    const file = join(dir, 'quiet.yaml')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(
      file,
      `suite: quiet\ntarget:\n  function: ${sdkAgents}#noModel\ncases:\n  - id: hi\n    input: hi\n    expect: { contains: hi }\n`,
    )
    const run = await runCli(['run', file, '--record', '--out', join(dir, 'reports')])

    expect(run.code).toBe(0)
    const lines = run.stderr.split('\n').filter((line) => line.includes('recorded nothing'))
    expect(lines).toEqual([
      `Warning: --record recorded nothing into ${join(dir, '__cassettes__', 'quiet.jsonl')}: no case made a model call through the engine, an SDK in this process, or the recording proxy a command target's \`OPENAI_BASE_URL\` / \`ANTHROPIC_BASE_URL\` point at (an http: target's calls happen in its own service).`,
    ])
  }, 60_000)
})

describe('our own engine under the HTTP layer', () => {
  test('its model calls, even over an intercepted `fetch`, are recorded once, at the model layer', async () => {
    const dir = tempDir()
    const suite = {
      ...sdkSuite(dir, 'unused', [caseOf('echo', { input: 'Hello there', expect: { contains: 'Echo' } })]),
      target: {
        type: 'agent' as const,
        module: join(import.meta.dirname, 'fixtures', 'own-engine-agent.ts'),
      },
    }
    const { results } = await runInto(dir, suite, { cassettes: 'record' })

    expect(results[0]?.status).toBe('passed')
    expect(cassetteLines(dir, 'sdk').map((line) => line.kind)).toEqual(['model'])
  }, 60_000)
})
