import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { Reporter } from '../../src/reporters/reporter.ts'
import { runSuite, runSuites } from '../../src/runner/run-suite.ts'
import {
  caseOf,
  never,
  readResults,
  suiteOf,
  targetOf,
  targetsFor,
  tempDir,
  transcriptOf,
} from './helpers.ts'

const echo = targetOf((input) => transcriptOf(input, `echo ${input}`))

describe('runSuite', () => {
  test('streams one result per (case, trial) to results.jsonl and sums them up in summary.json', async () => {
    const suite = suiteOf([
      caseOf('a', { expect: { contains: 'echo a' }, weight: 3, trials: 2 }),
      caseOf('b', { expect: { contains: 'nope' } }),
      caseOf('c', { skip: 'flaky upstream' }),
    ])
    const outDir = tempDir()
    const report = await runSuite(suite, { outDir, runId: 'r1', targets: targetsFor(suite, echo) })

    expect(report.counts).toEqual({ passed: 2, failed: 1, errored: 0, skipped: 1, partial: 0 })
    expect(report.total).toBe(4)
    // case-level: a (weight 3) passed 2/2, b (weight 1) failed 0/1 → 3 / 4
    expect(report.accuracy).toBeCloseTo(3 / 4)
    expect(report.resultsFile).toBe(join(outDir, 'r1', 'results.jsonl'))
    const results = readResults(report.resultsFile)
    expect(results.map((r) => `${r.caseId}#${r.trial}:${r.status}`).sort()).toEqual([
      'a#0:passed',
      'a#1:passed',
      'b#0:failed',
      'c#0:skipped',
    ])
    const failed = results.find((r) => r.caseId === 'b')
    expect(failed?.status === 'failed' && failed.verdicts[0]?.evaluator).toBe('contains')
    expect(failed?.status === 'failed' && failed.transcript.output).toBe('echo b')
    expect(report.problems).toEqual([
      {
        suite: 'demo',
        caseId: 'b',
        trial: 0,
        status: 'failed',
        reasons: [{ evaluator: 'contains', reason: expect.any(String) as string }],
      },
    ])
    const summary = JSON.parse(readFileSync(join(outDir, 'r1', 'summary.json'), 'utf8')) as {
      counts: unknown
    }
    expect(summary.counts).toEqual(report.counts)
  })

  test('passes the trial index to the target and `--trials` overrides the case', async () => {
    const trials: number[] = []
    const target = targetOf((input, _signal, trial) => {
      trials.push(trial)
      return transcriptOf(input, 'x')
    })
    const suite = suiteOf([caseOf('a', { trials: 5 })])
    const report = await runSuite(suite, { outDir: tempDir(), trials: 3, targets: targetsFor(suite, target) })
    expect(trials.sort()).toEqual([0, 1, 2])
    expect(report.counts.passed).toBe(3)
  })

  test('marks a hung target errored after the case timeout and goes on', async () => {
    const target = targetOf((input, signal) => (input === 'hang' ? never(signal) : transcriptOf(input, 'ok')))
    const suite = suiteOf([caseOf('hang'), caseOf('fine')])
    const started = Date.now()
    const report = await runSuite(suite, {
      outDir: tempDir(),
      timeoutMs: 100,
      targets: targetsFor(suite, target),
    })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(report.counts).toMatchObject({ passed: 1, errored: 1 })
    const hung = readResults(report.resultsFile).find((r) => r.caseId === 'hang')
    expect(hung?.status === 'errored' && hung.error).toMatchObject({
      name: 'TimeoutError',
      code: 'EVALS_TIMEOUT',
      message: 'case `hang` took longer than 100ms; raise `timeout_ms` in the case file or --timeout',
    })
  })

  test('marks a throwing target and a transcript with an error as errored, never failed', async () => {
    const target = targetOf((input) => {
      if (input === 'throws') throw new Error('connection refused')
      return transcriptOf(input, '', { error: 'provider down' })
    })
    const suite = suiteOf([
      caseOf('throws', { expect: { contains: 'x' } }),
      caseOf('reports', { expect: { contains: 'x' } }),
    ])
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
    expect(report.counts).toMatchObject({ failed: 0, errored: 2 })
    expect(report.accuracy).toBeNull()
    expect(report.problems.map((p) => p.reasons[0]?.reason).sort()).toEqual([
      'Error: connection refused',
      'Error: provider down',
    ])
  })

  test('marks a case errored when an evaluator throws, keeping the error and the transcript', async () => {
    const suite = suiteOf([caseOf('a', { expect: { custom: './checks.ts#explodes' } })], {
      file: join(import.meta.dirname, 'fixtures', 'demo.yaml'),
    })
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, echo) })
    const [result] = readResults(report.resultsFile)
    expect(result?.status).toBe('errored')
    expect(result?.status === 'errored' && result.error.message).toBe('the check exploded')
    expect(result?.status === 'errored' && result.error.stack).toContain('checks.ts')
    expect(result?.status === 'errored' && result.transcript?.output).toBe('echo a')
  })

  test('stops starting cases after the first failure with bail', async () => {
    const suite = suiteOf(
      Array.from({ length: 20 }, (_, i) => caseOf(`c${i}`, { expect: { contains: 'c0' } })),
    )
    const report = await runSuite(suite, {
      outDir: tempDir(),
      concurrency: 1,
      bail: true,
      targets: targetsFor(suite, echo),
    })
    expect(report.stoppedBy).toBe('bail')
    expect(report.counts).toMatchObject({ passed: 1, failed: 1 })
    expect(report.notRun).toBe(18)
  })

  test('runs at most `concurrency` cases at once', async () => {
    let running = 0
    let peak = 0
    const target = targetOf(async (input) => {
      peak = Math.max(peak, ++running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      running--
      return transcriptOf(input, 'x')
    })
    const suite = suiteOf(Array.from({ length: 30 }, (_, i) => caseOf(`c${i}`)))
    await runSuite(suite, { outDir: tempDir(), concurrency: 3, targets: targetsFor(suite, target) })
    expect(peak).toBe(3)
  })

  test('on interrupt stops starting cases, lets running ones finish, and aborts stragglers after the grace period', async () => {
    const controller = new AbortController()
    const target = targetOf(async (input, signal) => {
      if (input === 'c0') {
        setTimeout(() => {
          controller.abort()
        }, 5)
      }
      if (input === 'c1') return never(signal)
      await new Promise((resolve) => setTimeout(resolve, 20))
      return transcriptOf(input, 'x')
    })
    const suite = suiteOf(Array.from({ length: 10 }, (_, i) => caseOf(`c${i}`)))
    const started = Date.now()
    const report = await runSuite(suite, {
      outDir: tempDir(),
      concurrency: 3,
      graceMs: 200,
      signal: controller.signal,
      targets: targetsFor(suite, target),
    })
    expect(Date.now() - started).toBeLessThan(1500)
    expect(report.stoppedBy).toBe('interrupt')
    expect(
      readResults(report.resultsFile)
        .map((r) => r.caseId)
        .sort(),
    ).toEqual(['c0', 'c2'])
    expect(report.notRun).toBe(8)
  })

  test('keeps unknown cost unknown: sums known costs and counts the unknown ones', async () => {
    const target = targetOf((input) =>
      transcriptOf(input, 'x', {
        costUsd: input === 'free' ? null : 0.25,
        usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        latencyMs: Number(input.replace(/\D/g, '') || 0),
      }),
    )
    const suite = suiteOf([caseOf('c10'), caseOf('c20'), caseOf('free')])
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
    expect(report.costUsd).toBe(0.5)
    expect(report.unknownCostCount).toBe(1)
    expect(report.usage).toMatchObject({ inputTokens: 30, outputTokens: 6 })
    expect(report.latencyMs).toEqual({ p50: 10, p95: 19, p99: 19.8 })

    const none = suiteOf([caseOf('free')])
    expect(
      (await runSuite(none, { outDir: tempDir(), targets: targetsFor(none, target) })).costUsd,
    ).toBeNull()
  })

  test('tells reporters about the start, every case and the end, in that order', async () => {
    const events: string[] = []
    const reporter: Reporter = {
      onRunStart: (run) => void events.push(`start ${run.total}`),
      onCaseEnd: (result) => void events.push(`case ${result.caseId} ${result.status}`),
      onRunEnd: (report) => void events.push(`end ${report.counts.passed}`),
    }
    const suite = suiteOf([caseOf('a'), caseOf('b', { skip: 'later' })])
    await runSuite(suite, {
      outDir: tempDir(),
      concurrency: 1,
      reporters: [reporter],
      targets: targetsFor(suite, echo),
    })
    expect(events).toEqual(['start 2', 'case a passed', 'case b skipped', 'end 1'])
  })

  test('runs several suites into one results file', async () => {
    const first = suiteOf([caseOf('a')], { name: 'one' })
    const second = suiteOf([caseOf('a')], { name: 'two', file: join(import.meta.dirname, 'other.yaml') })
    const targets = new Map([
      [first.file, echo],
      [second.file, echo],
    ])
    const report = await runSuites([first, second], { outDir: tempDir(), targets })
    expect(report.suites.map((s) => s.name)).toEqual(['one', 'two'])
    expect(
      readResults(report.resultsFile)
        .map((r) => r.suite)
        .sort(),
    ).toEqual(['one', 'two'])
  })

  test('fails before running anything when a target module cannot load', async () => {
    const suite = suiteOf([caseOf('a')])
    const outDir = tempDir()
    await expect(runSuite(suite, { outDir, runId: 'x' })).rejects.toThrow('cannot find')
    expect(existsSync(join(outDir, 'x'))).toBe(false)
  })
})
