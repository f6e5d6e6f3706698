import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent } from '../../src/index.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import type { Provider } from '../../src/providers/provider.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import type { Target } from '../../src/targets/target.ts'
import { toTranscript } from '../../src/targets/to-transcript.ts'
import {
  startMockLlmServer,
  type MockLlmServer,
  type MockReply,
  type MockRequest,
} from '../../src/testing/index.ts'
import { runCli } from '../e2e/helpers.ts'
import { caseOf, suiteOf, tempDir } from '../runner/helpers.ts'

export const CASES = 200
export const CONCURRENCY = 16
export const FAULT_RATE = 0.3
/** attempts a call gets for a fault that is not a 429: 1 + maxRetries */
export const ATTEMPTS = 3
/** attempts a call gets for a 429 under the runner's limiter: 1 + maxRateLimitRetries */
export const RATE_LIMIT_ATTEMPTS = 31

export type FaultKind =
  | '429 retry-after'
  | '500'
  | '529'
  | 'connection reset'
  | 'hang past timeout'
  | 'malformed JSON'
  | 'truncated stream'

interface FaultSpec {
  reply: MockReply
  api: 'openai' | 'anthropic'
  stream: boolean
  attempts: number
}

export const FAULTS: Record<FaultKind, FaultSpec> = {
  '429 retry-after': {
    reply: { status: 429, retryAfterMs: 2 },
    api: 'openai',
    stream: false,
    attempts: RATE_LIMIT_ATTEMPTS,
  },
  '500': { reply: { status: 500, retryAfterMs: 1 }, api: 'openai', stream: false, attempts: ATTEMPTS },
  '529': { reply: { status: 529, retryAfterMs: 1 }, api: 'anthropic', stream: false, attempts: ATTEMPTS },
  'connection reset': { reply: { fault: 'reset' }, api: 'openai', stream: false, attempts: ATTEMPTS },
  'hang past timeout': {
    reply: { text: 'too late', latencyMs: 4000 },
    api: 'openai',
    stream: false,
    attempts: ATTEMPTS,
  },
  'malformed JSON': { reply: { fault: 'malformed-json' }, api: 'openai', stream: false, attempts: ATTEMPTS },
  'truncated stream': {
    reply: { fault: 'truncated-stream' },
    api: 'openai',
    stream: true,
    attempts: ATTEMPTS,
  },
}

/** FNV-1a: the same (fault, case, attempt) is faulted on every run and machine, whatever the arrival order. */
export function faulted(kind: FaultKind, caseId: string, attempt: number): boolean {
  let hash = 0x811c9dc5
  for (const char of `${kind}|${caseId}|${attempt}`) {
    hash ^= char.charCodeAt(0)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  // murmur3's finalizer: FNV alone leaves neighbouring attempts correlated in the low digits
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b) >>> 0
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35) >>> 0
  hash = (hash ^ (hash >>> 16)) >>> 0
  return hash % 1000 < FAULT_RATE * 1000
}

/** What the case must end as: passed when some attempt within the budget is not faulted, else errored. */
export function expectedStatus(kind: FaultKind, caseId: string): 'passed' | 'errored' {
  for (let attempt = 0; attempt < FAULTS[kind].attempts; attempt++)
    if (!faulted(kind, caseId, attempt)) return 'passed'
  return 'errored'
}

export const caseIds = Array.from({ length: CASES }, (_, i) => `c-${String(i).padStart(3, '0')}`)

/** A mock model that answers `ok <case>` and injects the fault into the selected attempts. */
export function startFaultyModel(kind: FaultKind): Promise<MockLlmServer> {
  const attempts = new Map<string, number>()
  return startMockLlmServer({
    handler: (request: MockRequest): MockReply => {
      const caseId = lastUserText(request)
      const attempt = attempts.get(caseId) ?? 0
      attempts.set(caseId, attempt + 1)
      return faulted(kind, caseId, attempt) ? FAULTS[kind].reply : { text: `ok ${caseId}` }
    },
  })
}

function lastUserText(request: MockRequest): string {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages
  const content = messages.filter((message) => message.role === 'user').at(-1)?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((block: { text?: string }) => block.text ?? '').join('') : ''
}

function agentFor(kind: FaultKind, server: MockLlmServer): Agent {
  const spec = FAULTS[kind]
  const provider: Provider =
    spec.api === 'anthropic'
      ? new AnthropicProvider({ model: 'claude-test', apiKey: 'test', baseURL: server.anthropicBaseURL })
      : new OpenAiProvider({ model: 'gpt-test', apiKey: 'test', baseURL: server.openaiBaseURL })
  return new Agent({
    model: provider,
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 },
    // only the hang needs a tight limit; the others get room for a loaded 2-core machine
    requestTimeoutMs: kind === 'hang past timeout' ? 1000 : 10_000,
  })
}

/** An agent target; the streaming one drains `agent.stream()` so the SDK's stream path meets the fault. */
function targetFor(kind: FaultKind, server: MockLlmServer): Target {
  const agent = agentFor(kind, server)
  return {
    id: `agent:fault-matrix:${kind}`,
    run: async (input, context) => {
      const started = performance.now()
      let result: unknown
      if (FAULTS[kind].stream) {
        for await (const event of agent.stream(input, { signal: context.signal, trial: context.trial }))
          if (event.type === 'result') result = event.result
      } else {
        result = await agent.run(input, { signal: context.signal, trial: context.trial })
      }
      const transcript = toTranscript(result, input, performance.now() - started)
      if (!transcript) throw new Error('the agent gave no result')
      return transcript
    },
  }
}

/** One row of the matrix table. */
export interface MatrixRow {
  fault: string
  cases: number
  passed: number
  errored: number
  failed: number
  retries: number
  wallS: number
  results: CaseResult[]
  exitCode?: number | null
}

function rowOf(fault: string, results: CaseResult[], requests: number, wallMs: number): MatrixRow {
  const count = (status: CaseResult['status']) => results.filter((result) => result.status === status).length
  return {
    fault,
    cases: results.length,
    passed: count('passed'),
    errored: count('errored'),
    failed: count('failed'),
    // every case makes one logical model call; each further request is a retry
    retries: requests - CASES,
    wallS: wallMs / 1000,
    results,
  }
}

/** Runs the 200 cases in-process with `runSuites` at concurrency 16 against a faulty mock model. */
export async function runInProcess(kind: FaultKind): Promise<MatrixRow> {
  const server = await startFaultyModel(kind)
  try {
    const suite = suiteOf(
      caseIds.map((id) => caseOf(id, { expect: { contains: 'ok' } })),
      { name: 'fault-matrix' },
    )
    // load the SDK and open connections first, so the request timeout measures the server, not start-up
    const target = targetFor(kind, server)
    await target.run('warm-up', { signal: new AbortController().signal, caseId: 'warm-up', trial: 0 })
    const warmUp = server.journal.length
    const started = performance.now()
    const report = await runSuites([suite], {
      concurrency: CONCURRENCY,
      outDir: tempDir(),
      targets: new Map([[suite.file, target]]),
    })
    const wallMs = performance.now() - started
    return rowOf(kind, readRows(report.resultsFile), server.journal.length - warmUp, wallMs)
  } finally {
    await server.close()
  }
}

/** Runs the 200 cases through the built `evals` bin as a child process. */
export async function runThroughCli(kind: FaultKind): Promise<MatrixRow> {
  const server = await startFaultyModel(kind)
  try {
    const dir = tempDir()
    const file = join(dir, 'matrix.yaml')
    const agent = join(import.meta.dirname, 'fixtures', 'agent.ts')
    const lines = caseIds.map((id) => `  - { id: ${id}, input: ${id}, expect: { contains: ok } }`)
    writeFileSync(
      file,
      `suite: fault-matrix\ntarget:\n  agent: ${agent}\nmodel: openai:gpt-test\ncases:\n${lines.join('\n')}\n`,
    )
    const out = join(dir, 'reports')
    const started = performance.now()
    const run = await runCli(['run', file, '--concurrency', String(CONCURRENCY), '--out', out], {
      env: { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.openaiBaseURL },
    })
    const wallMs = performance.now() - started
    const [runDir] = readdirSync(out)
    if (runDir === undefined) throw new Error(`the CLI wrote no run: ${run.stderr}`)
    const row = rowOf(
      `${kind} (CLI)`,
      readRows(join(out, runDir, 'results.jsonl')),
      server.journal.length,
      wallMs,
    )
    row.exitCode = run.code
    return row
  } finally {
    await server.close()
  }
}

function readRows(file: string): CaseResult[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CaseResult)
}

/** The matrix as a markdown table. */
export function formatTable(rows: readonly MatrixRow[]): string {
  const head =
    '| fault | cases | passed | errored | failed | retries | wall s |\n|---|---|---|---|---|---|---|'
  const body = rows.map(
    (row) =>
      `| ${row.fault} | ${row.cases} | ${row.passed} | ${row.errored} | ${row.failed} | ${row.retries} | ${row.wallS.toFixed(2)} |`,
  )
  return [head, ...body].join('\n')
}
