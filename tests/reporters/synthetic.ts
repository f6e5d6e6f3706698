import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ReportInput } from '../../src/report-file/header.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import type { Transcript } from '../../src/types.ts'

const USAGE = { inputTokens: 420, outputTokens: 64, cacheReadTokens: 0, cacheWriteTokens: 0 }

/** A realistic agent transcript: one tool call, a four-step trace, ~400 characters of text. */
export function syntheticTranscript(i: number, output?: string): Transcript {
  const start = 1_700_000_000_000 + i * 1000
  const input = `Where is order ${1000 + i}? I ordered it last week and the tracking page says nothing. Customer ${i % 97}.`
  return {
    input,
    messages: [{ role: 'user', content: input }],
    source: 'engine',
    output:
      output ??
      `Your order ${1000 + i} shipped on Monday with the carrier and should arrive within two business days. ` +
        `The tracking number is TRK-${i}. Anything else I can help with?`,
    toolCalls: [
      {
        id: `call_${i}`,
        name: 'order_status',
        args: { order_id: 1000 + i },
        result: { status: 'shipped' },
        durationMs: 3,
      },
    ],
    usage: USAGE,
    costUsd: 0.00021,
    latencyMs: 400 + (i % 300),
    iterations: 2,
    stopReason: 'final',
    trace: [
      {
        type: 'llm_call',
        startedAt: start,
        durationMs: 180,
        iteration: 0,
        providerId: 'openai',
        model: 'gpt-4.1-mini',
        usage: USAGE,
        finishReason: 'tool_calls',
        toolCalls: 1,
      },
      {
        type: 'tool_call',
        startedAt: start + 181,
        durationMs: 0,
        callId: `call_${i}`,
        name: 'order_status',
        args: { order_id: 1000 + i },
      },
      {
        type: 'tool_result',
        startedAt: start + 184,
        durationMs: 3,
        callId: `call_${i}`,
        name: 'order_status',
        ok: true,
        resultChars: 21,
      },
      {
        type: 'llm_call',
        startedAt: start + 190,
        durationMs: 210,
        iteration: 1,
        providerId: 'openai',
        model: 'gpt-4.1-mini',
        usage: USAGE,
        finishReason: 'stop',
        toolCalls: 0,
      },
    ],
  }
}

/** The i-th synthetic result: 85% passed, 10% failed, 3% errored, 2% skipped. */
export function syntheticResult(i: number, suite = 'support'): CaseResult {
  const base = {
    suite,
    caseId: `case-${String(i).padStart(5, '0')}`,
    trial: 0,
    tags: i % 3 === 0 ? ['billing'] : ['shipping'],
    weight: 1,
    durationMs: 420 + (i % 300),
  }
  const kind = i % 100
  if (kind < 2) return { ...base, status: 'skipped', reason: 'waiting for the refunds API' }
  const transcript = syntheticTranscript(i)
  const toolVerdict = { evaluator: 'tool', weight: 1, pass: true, reason: 'called `order_status`' }
  if (kind < 5) {
    return {
      ...base,
      status: 'errored',
      error: {
        name: 'TimeoutError',
        message: 'the target did not answer within 60000 ms',
        code: 'EVALS_TIMEOUT',
      },
      verdicts: [],
      transcript,
    }
  }
  const pass = kind >= 15
  return {
    ...base,
    status: pass ? 'passed' : 'failed',
    score: pass ? 1 : 0.5,
    verdicts: [
      toolVerdict,
      {
        evaluator: 'contains',
        weight: 1,
        pass,
        reason: pass ? 'output contains `shipped`' : 'output does not contain `refunded` (ignoring case)',
      },
    ],
    transcript,
  }
}

/** Writes `results.jsonl` for the given results into `dir` and returns what writeJsonReport needs. */
export function writeRun(dir: string, results: Iterable<CaseResult>, suites = ['support']): ReportInput {
  mkdirSync(dir, { recursive: true })
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 }
  const lines: string[] = []
  let total = 0
  for (const result of results) {
    counts[result.status]++
    total++
    lines.push(JSON.stringify(result))
  }
  const resultsFile = join(dir, 'results.jsonl')
  writeFileSync(resultsFile, lines.length === 0 ? '' : `${lines.join('\n')}\n`)
  const graded = counts.passed + counts.failed
  return {
    runId: 'synthetic',
    startedAt: '2026-01-31T12:00:00.000Z',
    durationMs: 1234,
    suites: suites.map((name) => ({
      name,
      file: `cases/${name}.yaml`,
      targetId: 'agent:support',
      model: 'openai:gpt-4.1-mini',
    })),
    concurrency: 8,
    total,
    counts,
    notRun: 0,
    accuracy: graded === 0 ? null : counts.passed / graded,
    latencyMs: { p50: 550, p95: 685, p99: 697 },
    usage: { inputTokens: 840 * total, outputTokens: 128 * total, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.00021 * total,
    unknownCostCount: 0,
    unknownUsageCount: 0,
    dir,
    resultsFile,
  }
}

/** `n` synthetic results in a shuffled (completion-like) order. */
export function* syntheticResults(n: number, suite = 'support'): Generator<CaseResult> {
  // a fixed stride visits every index once when it is coprime with n (every stride is, with n of 0 or 1)
  let stride = 7919
  while (n > 1 && gcd(stride, n) !== 1) stride++
  for (let k = 0; k < n; k++) yield syntheticResult((k * stride) % n, suite)
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b)
}
