/**
 * Grading by cause: a provider fault (a gateway's empty or null reply, a cut stream, invalid JSON, a 5xx or 429 that
 * outlasts the retries) ends the case `errored`, never `failed`. Each fault is served by two servers written apart
 * (our mock and `@copilotkit/aimock`) to the real OpenAI and Anthropic SDKs, through an `Agent` and the runner.
 * aimock answers chat and messages only with well-formed bodies, so the two HTTP-200 body faults (`choices: []`,
 * `message: null`) come from our mock alone; the other four come from both.
 */
import { readFileSync } from 'node:fs'
import { LLMock, type FixtureOpts, type FixtureResponse } from '@copilotkit/aimock'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Agent } from '../../src/index.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import type { Target } from '../../src/targets/target.ts'
import { toTranscript } from '../../src/targets/to-transcript.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'
import { caseOf, suiteOf, tempDir } from '../runner/helpers.ts'

type Api = 'openai' | 'anthropic'
type Fault =
  | 'empty choices'
  | 'null message'
  | 'truncated stream'
  | 'malformed JSON'
  | '5xx after retries'
  | '429 after retries'

interface Served {
  ours: MockReply
  aimock?: { response: FixtureResponse; opts?: FixtureOpts }
  stream: boolean
  /** what the errored case's message must say */
  says: RegExp
}

const FAULTS: Record<Fault, Served> = {
  'empty choices': {
    ours: { fault: 'empty-choices' },
    stream: false,
    says: /malformed reply.*is (empty|missing)/,
  },
  'null message': {
    ours: { fault: 'null-message' },
    stream: false,
    says: /malformed reply.*(is null|is missing)/,
  },
  'truncated stream': {
    ours: { fault: 'truncated-stream' },
    aimock: {
      response: { content: 'a reply long enough to cut into several chunks' },
      opts: { truncateAfterChunks: 2 },
    },
    stream: true,
    says: /ended before|fetch failed|terminated/,
  },
  'malformed JSON': {
    ours: { fault: 'malformed-json' },
    aimock: { response: { content: 'hello' }, opts: { chaos: { malformedRate: 1 } } },
    stream: false,
    says: /malformed reply/,
  },
  '5xx after retries': {
    ours: { status: 500, retryAfterMs: 1 },
    aimock: { response: { error: { message: 'boom', type: 'server_error' }, status: 500 } },
    stream: false,
    says: /returned 500/,
  },
  '429 after retries': {
    ours: { status: 429, retryAfterMs: 1 },
    aimock: {
      response: { error: { message: 'slow down', type: 'rate_limit_error' }, status: 429, retryAfter: 0 },
    },
    stream: false,
    says: /returned 429/,
  },
}

let ours: MockLlmServer
let reply: MockReply = { text: 'hello' }
const aimock = new LLMock({ port: 0 })

beforeAll(async () => {
  ours = await startMockLlmServer({ handler: () => reply })
  await aimock.start()
})

afterAll(async () => {
  await ours.close()
  await aimock.stop()
})

function agentOn(api: Api, server: 'ours' | 'aimock'): Agent {
  const base = server === 'ours' ? ours.url : aimock.url
  const model =
    api === 'openai'
      ? new OpenAiProvider({ model: 'gpt-test', apiKey: 'test', baseURL: `${base}/v1` })
      : new AnthropicProvider({ model: 'claude-test', apiKey: 'test', baseURL: base })
  return new Agent({ model, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 } })
}

function targetOf(agent: Agent, stream: boolean): Target {
  return {
    id: 'agent:fault-grading',
    run: async (input, context) => {
      let result: unknown
      if (stream) {
        for await (const event of agent.stream(input, { signal: context.signal }))
          if (event.type === 'result') result = event.result
      } else result = await agent.run(input, { signal: context.signal })
      const transcript = toTranscript(result, input, 1)
      if (!transcript) throw new Error('the agent gave no result')
      return transcript
    },
  }
}

/** One case expecting `hello`, run by the runner against the agent; its one result row. */
async function gradeOne(target: Target): Promise<CaseResult> {
  const suite = suiteOf([caseOf('greet', { expect: { contains: 'hello' } })], { name: 'fault-grading' })
  const report = await runSuites([suite], { outDir: tempDir(), targets: new Map([[suite.file, target]]) })
  const [row] = readFileSync(report.resultsFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CaseResult)
  if (row === undefined) throw new Error('no result row')
  return row
}

const matrix = (Object.keys(FAULTS) as Fault[]).flatMap((fault) =>
  (['openai', 'anthropic'] as const).flatMap((api) =>
    (['ours', 'aimock'] as const)
      .filter((server) => server === 'ours' || FAULTS[fault].aimock !== undefined)
      .map((server) => ({ fault, api, server })),
  ),
)

describe('a provider fault is the infrastructure’s, so the case is errored, never failed', () => {
  test.each(matrix)('$fault from $server over the $api SDK → errored', async ({ fault, api, server }) => {
    const served = FAULTS[fault]
    reply = served.ours
    aimock.clearFixtures()
    if (served.aimock) aimock.on({}, served.aimock.response, served.aimock.opts)
    const row = await gradeOne(targetOf(agentOn(api, server), served.stream))
    expect(row.status).toBe('errored')
    if (row.status === 'errored') expect(row.error.message).toMatch(served.says)
  })

  // the controls: the same path grades a good reply passed and a wrong one failed, so the test can tell them apart
  test.each([
    { api: 'openai', server: 'ours' },
    { api: 'anthropic', server: 'ours' },
    { api: 'openai', server: 'aimock' },
    { api: 'anthropic', server: 'aimock' },
  ] as const)(
    'controls from $server over the $api SDK: hello → passed, goodbye → failed',
    async ({ api, server }) => {
      for (const [text, status] of [
        ['hello', 'passed'],
        ['goodbye', 'failed'],
      ] as const) {
        reply = { text }
        aimock.clearFixtures()
        aimock.on({}, { content: text })
        for (const stream of [false, true]) {
          const row = await gradeOne(targetOf(agentOn(api, server), stream))
          expect(row.status, `${text}, stream ${stream}`).toBe(status)
        }
      }
    },
  )

  test('Anthropic’s own empty `content: []` is an answer (graded), not a fault', async () => {
    reply = { text: '' }
    const row = await gradeOne(targetOf(agentOn('anthropic', 'ours'), false))
    expect(row.status).toBe('failed')
  })
})
