import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { Suite } from '../../src/cases/suite.ts'
import { CaseList } from '../../src/cases/case-list.ts'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import type { MockLlmServer } from '../../src/testing/index.ts'
import { caseOf, cassetteLines, runInto, stable, tempDir } from './helpers.ts'
import { startOrderModel } from './http-helpers.ts'
import { plainNodeScript } from '../setup/plain-node-script.ts'

// node runs the TypeScript fixture compiled to JavaScript (the command runs in a temporary folder)
const script = await plainNodeScript(join(import.meta.dirname, 'fixtures', 'openai-command.ts'))
const node = [process.execPath, script].map((part) => JSON.stringify(part)).join(' ')
const saved = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY }

let server: MockLlmServer
beforeEach(async () => {
  server = await startOrderModel()
  process.env.OPENAI_BASE_URL = server.openaiBaseURL
  process.env.OPENAI_API_KEY = 'sk-test-0123456789abcdef'
})
afterEach(async () => {
  await server.close().catch(() => undefined)
  process.env.OPENAI_BASE_URL = saved.url
  process.env.OPENAI_API_KEY = saved.key
  delete process.env.EVALS_TEST_STREAM
})

/** A suite whose target is a node script using the openai SDK, in a process of its own. */
function commandSuite(dir: string, cases: CaseDefinition[]): Suite {
  return {
    name: 'command',
    file: join(dir, 'command.yaml'),
    target: {
      type: 'command',
      command: node,
      input: 'stdin',
      cwd: dir,
    },
    trials: 1,
    cases: CaseList.of(cases),
  }
}

const cases = () => [
  caseOf('hello', { input: 'Hello there', expect: { contains: 'Echo: Hello there' } }),
  caseOf('bye', { input: 'Goodbye', expect: { contains: 'Echo: Goodbye' } }),
]

describe('a command target through the loopback recording proxy', () => {
  test.each([
    ['whole replies', '0'],
    ['streamed replies', '1'],
  ])(
    '%s: recorded, then replayed with the server stopped and no API key',
    async (_, stream) => {
      process.env.EVALS_TEST_STREAM = stream
      const dir = tempDir()
      const recorded = await runInto(dir, commandSuite(dir, cases()), { cassettes: 'record' })
      const calls = server.journal.length
      await server.close()
      delete process.env.OPENAI_API_KEY
      const replayed = await runInto(dir, commandSuite(dir, cases()), { cassettes: 'replay' })

      expect(recorded.results.map((result) => result.status)).toEqual(['passed', 'passed'])
      expect(calls).toBe(2)
      expect(stable(replayed.results)).toEqual(stable(recorded.results))
      const lines = cassetteLines(dir, 'command')
      expect(lines.map((line) => [line.kind, line.caseId])).toEqual(
        expect.arrayContaining([
          ['http', 'hello'],
          ['http', 'bye'],
        ]),
      )
      // forwarded to the user's OPENAI_BASE_URL (here the mock server), keyed without the proxy's path or port
      expect(lines[0]).toMatchObject({ request: { host: '127.0.0.1', path: '/v1/chat/completions' } })
    },
    60_000,
  )

  test('a replay miss errors the case, naming the cassette and the request', async () => {
    const dir = tempDir()
    const { results } = await runInto(dir, commandSuite(dir, cases().slice(0, 1)), { cassettes: 'replay' })

    expect(server.journal).toHaveLength(0)
    expect(results[0]?.status).toBe('errored')
    if (results[0]?.status !== 'errored') return
    expect(results[0].error.message).toContain(
      'Replay miss: no recorded `POST 127.0.0.1/v1/chat/completions`',
    )
  }, 60_000)
})
