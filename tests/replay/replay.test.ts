import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { MockLlmServer } from '../../src/testing/index.ts'
import { executions } from './fixtures/agent.ts'
import { agentSuite, caseOf, cassetteLines, runInto, stable, startEchoModel, tempDir } from './helpers.ts'

// a GitHub token's shape (secretlint's rule), built here so no scanner flags this file
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7H8`

let server: MockLlmServer
const savedEnv = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL }

beforeAll(async () => {
  server = await startEchoModel()
})
afterAll(async () => {
  await server.close()
  process.env.OPENAI_API_KEY = savedEnv.key
  process.env.OPENAI_BASE_URL = savedEnv.url
})
beforeEach(() => {
  process.env.OPENAI_API_KEY = 'sk-test-0123456789abcdef'
  process.env.OPENAI_BASE_URL = server.openaiBaseURL
})

const cases = () => [
  caseOf('echo', { input: 'Hello there', expect: { contains: 'Echo' } }),
  caseOf('lookup', { input: 'Please look up u-42', expect: { contains: 'Ada' } }),
  caseOf('repeat', { input: 'Hello there', expect: { contains: 'Hello' } }),
]

describe('record, then replay', () => {
  test('replays byte-identical results with no network and no API key, tools included', async () => {
    const dir = tempDir()
    const suite = agentSuite(dir, cases())
    const recorded = await runInto(dir, suite, { cassettes: 'record', trials: 2 })
    const calls = server.journal.length
    const ran = executions.lookupUser
    expect(recorded.results.map((result) => result.status)).toEqual(Array(6).fill('passed'))

    delete process.env.OPENAI_API_KEY
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9'
    const replayed = await runInto(dir, suite, { cassettes: 'replay', trials: 2 })

    expect(stable(replayed.results)).toEqual(stable(recorded.results))
    expect(server.journal.length).toBe(calls)
    expect(executions.lookupUser).toBe(ran)
  }, 60_000) // two whole runs of a 2-trial suite: 5 s alone, several times that on a loaded CI machine

  test('keys entries by trial and by repeat, and holds the canonical request, completion and usage', async () => {
    const dir = tempDir()
    await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'record', trials: 2 })

    const lines = cassetteLines(dir)
    expect(lines).toHaveLength(2)
    expect(new Set(lines.map((line) => line.key)).size).toBe(2)
    expect(lines.map((line) => line.trial).sort()).toEqual([0, 1])
    expect(lines[0]).toMatchObject({
      v: 1,
      kind: 'model',
      providerId: 'openai:gpt-test',
      suite: 'replayed',
      caseId: 'echo',
      seq: 0,
      request: { messages: [{ role: 'user', content: 'Hello there' }], tools: [{ name: 'lookup_user' }] },
      completion: { message: { text: 'Echo: Hello there' }, usage: { inputTokens: 11, outputTokens: 3 } },
    })
  })

  test('scrubs API keys and secret-looking strings from the cassette', async () => {
    const dir = tempDir()
    process.env.EVALS_TEST_TOKEN = 'very-secret-token-value'
    const secretive = caseOf('secret', {
      input: `Echo ${GITHUB_TOKEN} and very-secret-token-value please`,
    })
    await runInto(dir, agentSuite(dir, [secretive]), { cassettes: 'record' })
    delete process.env.EVALS_TEST_TOKEN

    const text = readFileSync(join(dir, '__cassettes__', 'replayed.jsonl'), 'utf8')
    expect(text).not.toContain(GITHUB_TOKEN)
    expect(text).not.toContain('very-secret-token-value')
    expect(text).not.toContain('sk-test-0123456789abcdef')
    expect(text).toContain('Echo [redacted] and [redacted EVALS_TEST_TOKEN] please')
  })
})

describe('misses', () => {
  test('a strict replay miss makes the case errored, with a diff against the nearest recorded request', async () => {
    const dir = tempDir()
    await runInto(dir, agentSuite(dir, cases().slice(0, 2)), { cassettes: 'record' })
    const changed = [caseOf('echo', { input: 'Hello here', expect: { contains: 'Echo' } })]

    const { results, code } = await runInto(dir, agentSuite(dir, changed), { cassettes: 'replay' })

    expect(code).toBe(1)
    expect(results[0]?.status).toBe('errored')
    const message = results[0]?.status === 'errored' ? results[0].error.message : ''
    expect(message).toContain('Replay miss: no recorded call to `openai:gpt-test`')
    expect(message).toContain('(case `echo`, trial 0)')
    expect(message).toContain('Nearest recorded request (case `echo`, trial 0), recorded → now:')
    expect(message).toContain('~ messages[0].content: "Hello there" → "Hello here"')
    expect(message).toContain('--replay auto')
  })

  test('a miss in a long message shows the diff from just before the change', async () => {
    const dir = tempDir()
    const question = (city: string) =>
      `Hello there. I am planning a long trip next spring and would like to know the weather in ${city}.`
    await runInto(dir, agentSuite(dir, [caseOf('echo', { input: question('Paris') })]), {
      cassettes: 'record',
    })
    const changed = [caseOf('echo', { input: question('Lyon') })]

    const { results } = await runInto(dir, agentSuite(dir, changed), { cassettes: 'replay' })

    const message = results[0]?.status === 'errored' ? results[0].error.message : ''
    expect(message).toContain(
      '~ messages[0].content: …d like to know the weather in Paris." → …d like to know the weather in Lyon."',
    )
  })

  test('a trial that was never recorded misses with a hint about the trial index', async () => {
    const dir = tempDir()
    await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'record' })

    const { results } = await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'replay', trials: 2 })

    expect(results.map((result) => result.status)).toEqual(['passed', 'errored'])
    const message = results[1]?.status === 'errored' ? results[1].error.message : ''
    expect(message).toContain('The same request is recorded for trial 0')
  })

  test('auto mode records the misses and serves the rest', async () => {
    const dir = tempDir()
    await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'record' })
    const calls = server.journal.length

    const auto = await runInto(dir, agentSuite(dir, cases()), { cassettes: 'auto' })

    expect(auto.results.every((result) => result.status === 'passed')).toBe(true)
    // lookup makes 2 calls; echo is replayed, and so is repeat: same request, and the case id is not in the key
    expect(server.journal.length - calls).toBe(2)
    expect(cassetteLines(dir)).toHaveLength(4) // + the recorded tool call
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9'
    const strict = await runInto(dir, agentSuite(dir, cases()), { cassettes: 'replay' })
    expect(strict.results.every((result) => result.status === 'passed')).toBe(true)
  })
})

describe('the cassette file', () => {
  test('tolerates a torn last line and starts the next entry on a new line', async () => {
    const dir = tempDir()
    await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'record' })
    const file = join(dir, '__cassettes__', 'replayed.jsonl')
    appendFileSync(file, '{"v":1,"kind":"model","key":"abc","completion":{"mess')

    const replayed = await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'replay' })
    expect(replayed.results[0]?.status).toBe('passed')

    await runInto(dir, agentSuite(dir, [caseOf('new', { input: 'Something new' })]), { cassettes: 'auto' })
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines).toHaveLength(4) // entry, torn line, new entry, final newline
    expect(JSON.parse(lines[2] ?? '')).toMatchObject({ caseId: 'new' })
  })

  test('a corrupt line in the middle is a config error naming the line', async () => {
    const dir = tempDir()
    await runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'record' })
    const file = join(dir, '__cassettes__', 'replayed.jsonl')
    writeFileSync(file, `not json\n${readFileSync(file, 'utf8')}`)

    await expect(runInto(dir, agentSuite(dir, [cases()[0]!]), { cassettes: 'replay' })).rejects.toThrow(
      /__cassettes__\/replayed\.jsonl:1 is not a cassette entry/,
    )
  })

  test('concurrent cases append whole lines through one writer', async () => {
    const dir = tempDir()
    const many = Array.from({ length: 40 }, (_, i) => caseOf(`c${i}`, { input: `Say ${i}` }))

    await runInto(dir, agentSuite(dir, many), { cassettes: 'record', concurrency: 16 })

    const lines = cassetteLines(dir)
    expect(lines).toHaveLength(40)
    expect(new Set(lines.map((line) => line.caseId)).size).toBe(40)
  })
})
