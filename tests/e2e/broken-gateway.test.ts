import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CaseResult } from '../../src/model/case-result.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'
import { ensureBuilt, runCli } from './helpers.ts'

const out = mkdtempSync(join(tmpdir(), 'evals-broken-gateway-'))
let server: MockLlmServer
let reply: MockReply = { fault: 'empty-choices' }

beforeAll(async () => {
  ensureBuilt()
  server = await startMockLlmServer({ handler: () => reply })
}, 120_000)

afterAll(async () => {
  await server.close()
  rmSync(out, { recursive: true, force: true })
})

/** The shipped quickstart through the built bin, its model an OpenAI-compatible gateway that answers `reply`. */
async function quickstartThrough(fault: MockReply, name: string) {
  reply = fault
  const dir = join(out, name)
  // every case at once: each one's retries wait out the provider's backoff, and the waits need not queue up
  const run = await runCli(
    [
      'run',
      'cases/quickstart.yaml',
      '--model',
      'openai:gpt-test',
      '--concurrency',
      '10',
      '--out',
      dir,
      '--reporter',
      'console',
    ],
    { env: { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.openaiBaseURL } },
  )
  const [runDir = ''] = readdirSync(dir)
  const rows = readFileSync(join(dir, runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CaseResult)
  return { run, rows }
}

test.each([
  ['`choices: []`', { fault: 'empty-choices' }],
  ['`message: null`', { fault: 'null-message' }],
] as const)(
  'the quickstart against a gateway answering HTTP 200 with %s errors every case (exit 2); none is failed',
  async (name, fault) => {
    const { run, rows } = await quickstartThrough(fault, name.replace(/\W/g, ''))
    expect(run.code, run.stderr).toBe(2)
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'errored'))
    expect(run.stdout + run.stderr).toMatch(/malformed reply/)
  },
  60_000,
)
