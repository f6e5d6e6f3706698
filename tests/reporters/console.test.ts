import { Writable } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { ConsoleReporter, formatSummary } from '../../src/reporters/console.ts'
import { makeStyle } from '../../src/reporters/format.ts'
import type { RunInfo, RunReport } from '../../src/model/run-report.ts'
import { emptyUsage } from '../../src/types.ts'

const info: RunInfo = {
  runId: 'r',
  startedAt: '2026-01-01T00:00:00.000Z',
  suites: [
    {
      name: 'support',
      file: 'cases/support.yaml',
      targetId: 'agent:cases/agents/support.ts',
      model: 'local',
    },
  ],
  total: 3,
  concurrency: 4,
  dir: 'reports/r',
}

const report: RunReport = {
  ...info,
  durationMs: 1234,
  counts: { passed: 1, failed: 1, errored: 1, skipped: 0 },
  accuracy: 0.5,
  latencyMs: { p50: 12, p95: 40, p99: 40 },
  usage: { ...emptyUsage(), inputTokens: 1200, outputTokens: 80 },
  costUsd: 0.0123,
  unknownCostCount: 1,
  unknownUsageCount: 0,
  judges: { verdicts: 0, usage: emptyUsage(), costUsd: null },
  problems: [
    {
      suite: 'support',
      caseId: 'refund',
      trial: 0,
      status: 'failed',
      reasons: [{ evaluator: 'tool', reason: 'expected tool `refund`, agent called `lookup`' }],
    },
    {
      suite: 'support',
      caseId: 'slow',
      trial: 1,
      status: 'errored',
      reasons: [{ evaluator: 'error', reason: 'TimeoutError: too slow' }],
    },
  ],
  moreProblems: 0,
  notRun: 0,
  resultsFile: 'reports/r/results.jsonl',
  weightedAccuracy: null,
  cases: [],
  suiteStats: [],
}

function capture(): { stream: Writable; text: () => string } {
  let text = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString()
      done()
    },
  })
  return { stream, text: () => text }
}

describe('console reporter', () => {
  test('summarizes counts, accuracy, latency, tokens, cost, and each failing case with its evaluator and reason', () => {
    expect(formatSummary(report, makeStyle(false))).toBe(`
Not passing
  ✗ support › refund
      tool: expected tool \`refund\`, agent called \`lookup\`
  ! support › slow (trial 2)
      error: TimeoutError: too slow

Cases     1 passed · 1 failed · 1 errored · 0 skipped
Accuracy  50.0% weighted, errored cases excluded
Latency   p50 12ms · p95 40ms · p99 40ms (target only)
Tokens    1,200 in · 80 out
Cost      $0.01 + 1 case runs with unknown price
Duration  1.23s
Results   reports/r/results.jsonl
`)
  })

  test('says token usage is unknown rather than 0 when the target reports none, and how much is unknown', () => {
    const none = { ...report, usage: emptyUsage(), unknownUsageCount: 2 }
    const some = { ...report, unknownUsageCount: 1 }
    expect(formatSummary(none, makeStyle(false))).toContain(
      '\nTokens    unknown (the target reports no usage)\n',
    )
    expect(formatSummary(some, makeStyle(false))).toContain(
      '\nTokens    1,200 in · 80 out + 1 case runs with unknown usage\n',
    )
  })

  test('prints plain lines per case for small runs when not in bar mode', () => {
    const { stream, text } = capture()
    const reporter = new ConsoleReporter({ stream, color: false, progress: 'lines' })
    reporter.onRunStart(info)
    reporter.onCaseEnd({
      suite: 'support',
      caseId: 'a',
      trial: 0,
      tags: [],
      weight: 1,
      durationMs: 5,
      status: 'skipped',
      reason: 'later',
    })
    expect(text()).toBe(
      'support cases/support.yaml · agent:cases/agents/support.ts · model local\nrunning 3 case runs, 3 at a time\n- support › a (later)\n',
    )
  })

  test('with trials, counts runs and says so', () => {
    const trials = {
      ...report,
      suiteStats: [{ trials: 3 }] as unknown as RunReport['suiteStats'],
    }
    expect(formatSummary(trials, makeStyle(false))).toContain(
      '\nRuns      1 passed · 1 failed · 1 errored · 0 skipped (0 cases, up to 3 trials each)\n',
    )
  })

  test('a resumed run says how many runs are left; a merge, that it runs nothing', () => {
    const started = (pending: number) => {
      const { stream, text } = capture()
      new ConsoleReporter({ stream, progress: 'lines' }).onRunStart({
        ...info,
        total: 8,
        concurrency: 4,
        pending,
      })
      return text().split('\n')[1]
    }
    expect(started(3)).toBe('resuming: running the 3 missing of 8 case runs, 3 at a time')
    expect(started(0)).toBe('nothing to run: the 8 case runs come from the results files')
  })

  test('uses ANSI colours only when asked', () => {
    const { stream, text } = capture()
    new ConsoleReporter({ stream, color: true, progress: 'lines' }).onRunEnd(report)
    expect(text()).toContain('\u001b[32m1 passed\u001b[39m')
  })

  test('redraws one progress line in bar mode and clears it before the summary', () => {
    const { stream, text } = capture()
    const reporter = new ConsoleReporter({ stream, color: false, progress: 'bar' })
    reporter.onRunStart({ ...info, total: 1 })
    reporter.onCaseEnd({
      suite: 'support',
      caseId: 'a',
      trial: 0,
      tags: [],
      weight: 1,
      durationMs: 5,
      status: 'skipped',
      reason: 'later',
    })
    reporter.onRunEnd(report)
    expect(text()).toMatch(new RegExp(`\r█{24} 1/1 \\S+\r${String.fromCharCode(27)}\\[2K\nNot passing`))
  })

  test("Duration is the command's wall time, with the cases' own time beside it", () => {
    const { stream, text } = capture()
    // a command that started 5 s before the reporter finished, as the CLI passes `0` for the process start
    const reporter = new ConsoleReporter({
      stream,
      color: false,
      progress: 'lines',
      commandStartMs: performance.now() - 5000,
    })
    reporter.onRunEnd(report)
    expect(text()).toMatch(
      /\nDuration {2}5\.\d\ds \(the command, start to end; running the cases took 1\.23s\)\n/,
    )
  })

  test('with a time beside each case, the latency line says it is the target alone', () => {
    const { stream, text } = capture()
    new ConsoleReporter({ stream, color: false, progress: 'lines' }).onRunEnd(report)
    expect(text()).toContain(
      '\nLatency   p50 12ms · p95 40ms · p99 40ms (target only; the time beside each case adds its checks)\n',
    )
  })

  test("names the variant in each suite's header line and each case's line", () => {
    const { stream, text } = capture()
    const reporter = new ConsoleReporter({ stream, color: false, progress: 'lines' })
    const suite = {
      name: 'compare',
      file: 'cases/compare.yaml',
      targetId: 'function:f.ts#reply',
      model: 'local',
    }
    reporter.onRunStart({
      ...info,
      suites: [
        { ...suite, variant: 'prompt-v1' },
        { ...suite, variant: 'prompt-v2' },
      ],
      total: 2,
    })
    for (const variant of ['prompt-v1', 'prompt-v2'])
      reporter.onCaseEnd({
        suite: 'compare',
        variant,
        caseId: 'lookup',
        trial: 0,
        tags: [],
        weight: 1,
        durationMs: 5,
        status: 'skipped',
        reason: 'later',
      })
    expect(text()).toBe(
      'compare [prompt-v1] cases/compare.yaml · function:f.ts#reply · model local\n' +
        'compare [prompt-v2] cases/compare.yaml · function:f.ts#reply · model local\n' +
        'running 2 case runs, 2 at a time\n' +
        '- compare › lookup [prompt-v1] (later)\n' +
        '- compare › lookup [prompt-v2] (later)\n',
    )
  })

  test('cases missing from a merge are not called interrupted', () => {
    const merged = { ...report, notRun: 4 }
    expect(formatSummary(merged, makeStyle(false))).toContain(
      '\nNot run   4 (no result in the runs merged)\n',
    )
    expect(formatSummary({ ...merged, stoppedBy: 'interrupt' }, makeStyle(false))).toContain(
      '\nNot run   4 (interrupted)\n',
    )
  })
})
