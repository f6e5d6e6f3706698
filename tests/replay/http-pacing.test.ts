import { afterEach, describe, expect, test } from 'vitest'
import type { MockLlmServer, MockRateLimit } from '../../src/testing/index.ts'
import { caseOf, runInto, tempDir } from './helpers.ts'
import { sdkSuite, startOrderModel } from './http-helpers.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  delete process.env.EVALS_TEST_OPENAI_URL
  delete process.env.OPENAI_API_KEY
})

async function start(rateLimit: MockRateLimit): Promise<void> {
  server = await startOrderModel(rateLimit)
  process.env.EVALS_TEST_OPENAI_URL = server.openaiBaseURL
  // the suite names `openai:…`, whose key the run checks before it starts; the agent has its own
  process.env.OPENAI_API_KEY = 'sk-test'
}

// eight single-call cases at once, from an AI SDK agent that does not retry (`maxRetries: 0`): a 429 that reached
// it would error its case
const burst = () =>
  Array.from({ length: 8 }, (_, i) => caseOf(`c${i}`, { input: `Hello ${i}`, expect: { contains: 'Echo' } }))

// a function target is paced when its suite names the model it calls (one that names none, most often a function
// computing its answer, does not load the interceptor); agent targets always are
const named = { model: 'openai:gpt-4.1-mini' }

describe('pacing an AI SDK agent at the HTTP layer', () => {
  test('follows the provider’s rate-limit headers, so no case meets a 429 that unpaced ones do', async () => {
    await start({ requestsPerSecond: 4, requestBurst: 2 })
    const dir = tempDir()

    const unpaced = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', burst(), named), {
      concurrency: 8,
      rateLimit: false,
    })
    const rejectedUnpaced = server!.rateLimited
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const paced = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', burst(), named), { concurrency: 8 })

    expect(unpaced.results.filter((result) => result.status === 'errored').length).toBeGreaterThan(0)
    expect(rejectedUnpaced).toBeGreaterThan(0)
    expect(paced.results.map((result) => result.status)).toEqual(Array(8).fill('passed'))
    // paced by the headers, the server had (almost) no reason to refuse: the first call goes alone to read them
    expect(server!.rateLimited - rejectedUnpaced).toBeLessThanOrEqual(1)
  }, 60_000)

  test('without headers, the layer waits out each 429’s retry-after and sends again, so the agent never sees one', async () => {
    await start({ requestsPerSecond: 4, requestBurst: 2, silent: true })
    const dir = tempDir()

    const paced = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', burst(), named), { concurrency: 8 })

    expect(paced.results.map((result) => result.status)).toEqual(Array(8).fill('passed'))
    // the 429s were met by the layer, never by the agent
    expect(server!.rateLimited).toBeGreaterThan(0)
  }, 60_000)

  test('a function suite that names no model is not paced: its calls meet the 429s', async () => {
    await start({ requestsPerSecond: 4, requestBurst: 2 })
    const dir = tempDir()

    const run = await runInto(dir, sdkSuite(dir, 'aiSdkAnswer', burst()), { concurrency: 8 })

    expect(run.results.filter((result) => result.status === 'errored').length).toBeGreaterThan(0)
  }, 60_000)
})
