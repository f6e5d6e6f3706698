import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { CaseList } from '../../src/cases/case-list.ts'
import type { Suite } from '../../src/cases/suite.ts'
import type { MockLlmServer, MockRateLimit } from '../../src/testing/index.ts'
import { caseOf, runInto, tempDir } from './helpers.ts'
import { startOrderModel } from './http-helpers.ts'

// A command target with no SDK: reads the case input on stdin and posts it with `fetch` to $OPENAI_BASE_URL, once,
// without retrying (a 429 that reaches it fails the process). It names the base URL it used in a header, so the test
// sees whether the call came through the run's proxy.
const SCRIPT = `let input = ''
for await (const chunk of process.stdin) input += String(chunk)
const base = process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'
const response = await fetch(base + '/chat/completions', {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    authorization: 'Bearer ' + (process.env.OPENAI_API_KEY ?? 'no-key-set'),
    'x-evals-test-base-url': base,
  },
  body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] }),
})
if (!response.ok) {
  process.stderr.write('HTTP ' + response.status + ': ' + (await response.text()) + '\\n')
  process.exit(1)
}
const reply = await response.json()
console.log(reply.choices[0].message.content)
`
const saved = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY }

let server: MockLlmServer | undefined
const dirs: string[] = []
afterEach(async () => {
  await server?.close()
  server = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  restore('OPENAI_BASE_URL', saved.url)
  restore('OPENAI_API_KEY', saved.key)
})

function restore(name: 'OPENAI_BASE_URL' | 'OPENAI_API_KEY', value: string | undefined): void {
  if (value !== undefined) process.env[name] = value
  else if (name === 'OPENAI_BASE_URL') delete process.env.OPENAI_BASE_URL
  else delete process.env.OPENAI_API_KEY
}

async function start(rateLimit: MockRateLimit): Promise<MockLlmServer> {
  server = await startOrderModel(rateLimit)
  // the user's own base URL: the proxy forwards to it
  process.env.OPENAI_BASE_URL = server.openaiBaseURL
  process.env.OPENAI_API_KEY = 'sk-test-0123456789abcdef'
  return server
}

// eight single-call cases at once, each a node process calling the model with `fetch` and no retries
function burst(dir: string): Suite {
  if (!dirs.includes(dir)) dirs.push(dir)
  const script = join(dir, 'fetch-command.mjs')
  writeFileSync(script, SCRIPT)
  return {
    name: 'fetching',
    file: join(dir, 'fetching.yaml'),
    target: {
      type: 'command',
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
      input: 'stdin',
      cwd: dir,
    },
    trials: 1,
    cases: CaseList.of(
      Array.from({ length: 8 }, (_, i) =>
        caseOf(`c${i}`, { input: `Hello ${i}`, expect: { contains: `Echo: Hello ${i}` } }),
      ),
    ),
  }
}

/** the base URL each call the server received was made to, as the script named it */
const baseUrls = (mock: MockLlmServer): string[] =>
  mock.journal.map((request) => request.headers['x-evals-test-base-url'] ?? '')

const PROXIED = /^http:\/\/127\.0\.0\.1:\d+\/c\d+\/OPENAI_BASE_URL$/

describe('pacing a command target through the loopback proxy, without recording', () => {
  test('follows the rate-limit headers, so no case meets a 429 that unpaced ones do', async () => {
    const mock = await start({ requestsPerSecond: 4, requestBurst: 2 })
    const dir = tempDir()

    const unpaced = await runInto(dir, burst(dir), { concurrency: 8, rateLimit: false })
    const rejectedUnpaced = mock.rateLimited
    const unpacedUrls = baseUrls(mock)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const journalBefore = mock.journal.length
    const paced = await runInto(dir, burst(dir), { concurrency: 8 })

    // without pacing there is no proxy: the target's own OPENAI_BASE_URL is untouched, and it meets the 429s
    expect(new Set(unpacedUrls)).toEqual(new Set([mock.openaiBaseURL]))
    expect(rejectedUnpaced).toBeGreaterThan(0)
    expect(unpaced.results.filter((result) => result.status === 'errored').length).toBeGreaterThan(0)
    expect(paced.results.map((result) => result.status)).toEqual(Array(8).fill('passed'))
    // the first call goes alone to read the headers: the server had (almost) no reason to refuse
    expect(mock.rateLimited - rejectedUnpaced).toBeLessThanOrEqual(1)
    // every call the server saw in the paced run came through the proxy, one per case (plus a 429 at most)
    const pacedUrls = baseUrls(mock).slice(journalBefore)
    expect(pacedUrls.length).toBeGreaterThanOrEqual(8)
    expect(pacedUrls.length).toBeLessThanOrEqual(9)
    for (const url of pacedUrls) expect(url).toMatch(PROXIED)
    expect(new Set(pacedUrls).size).toBe(8)
  }, 90_000)

  test('without headers, the proxy waits out each 429’s retry-after and sends again, so the target never sees one', async () => {
    const mock = await start({ requestsPerSecond: 4, requestBurst: 2, silent: true })
    const dir = tempDir()

    const paced = await runInto(dir, burst(dir), { concurrency: 8 })

    expect(paced.results.map((result) => result.status)).toEqual(Array(8).fill('passed'))
    // the 429s were met by the proxy, never by the script, which does not retry
    expect(mock.rateLimited).toBeGreaterThan(0)
    for (const url of baseUrls(mock)) expect(url).toMatch(PROXIED)
  }, 90_000)
})
