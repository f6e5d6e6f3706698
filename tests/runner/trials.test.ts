import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { hashInput } from '../../src/baselines/hash.ts'
import type { CaseStats, RunReport } from '../../src/model/run-report.ts'
import { runSuite, runSuites } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

/** `pass` answers with `ok`, anything else with `no`; checks expect `ok`. */
type Plan = Record<string, readonly ('pass' | 'fail' | 'error')[]>

function targetFor(plan: Plan, fields: { latencyMs?: number; costUsd?: number | null } = {}) {
  return targetOf((input, _signal, trial) => {
    const outcome = plan[input]?.[trial] ?? 'pass'
    if (outcome === 'error') throw new Error(`${input} fell over`)
    return transcriptOf(input, outcome === 'pass' ? 'ok' : 'no', {
      latencyMs: fields.latencyMs ?? 10 * (trial + 1),
      costUsd: fields.costUsd === undefined ? 0.01 : fields.costUsd,
    })
  })
}

async function run(plan: Plan, weights: Record<string, number> = {}): Promise<RunReport> {
  const suite = suiteOf(
    Object.entries(plan).map(([id, outcomes]) =>
      caseOf(id, { expect: { contains: 'ok' }, trials: outcomes.length, weight: weights[id] ?? 1 }),
    ),
  )
  return runSuite(suite, { outDir: tempDir(), runId: 'r', targets: targetsFor(suite, targetFor(plan)) })
}

function byId(report: RunReport): Record<string, CaseStats> {
  return Object.fromEntries([...report.cases].map((entry) => [entry.id, entry]))
}

describe('trial aggregation', () => {
  test('counts passes per case over its trials, with pass@k, pass^k and flaky', async () => {
    const report = await run({
      always: ['pass', 'pass', 'pass'],
      twice: ['pass', 'fail', 'pass'],
      never: ['fail', 'fail', 'fail'],
      once: ['fail', 'pass', 'fail', 'fail'],
    })
    const cases = byId(report)
    expect(cases.always).toMatchObject({
      passes: 3,
      trials: 3,
      passRate: 1,
      passAtK: 1,
      passHatK: 1,
      flaky: false,
      status: 'passed',
    })
    expect(cases.twice).toMatchObject({ passes: 2, trials: 3, passAtK: 1, flaky: true, status: 'failed' })
    expect(cases.twice?.passRate).toBeCloseTo(2 / 3, 12)
    // unbiased pass^3 = C(2, 3) / C(3, 3) = 0: two passes are not three (the plug-in (2/3)^3 said 0.30)
    expect(cases.twice?.passHatK).toBe(0)
    expect(cases.never).toMatchObject({ passes: 0, passRate: 0, passAtK: 0, passHatK: 0, flaky: false })
    // 1 of 4: pass@4 is 1 (some trial passed), pass^4 = C(1, 4) / C(4, 4) = 0
    expect(cases.once).toMatchObject({ passes: 1, trials: 4, passAtK: 1, passHatK: 0, flaky: true })
    expect(report.suiteStats[0]).toMatchObject({ suite: 'demo', trials: 4, flaky: 2 })
  })

  test('weights cases, not trials: accuracy with standard error and a Wilson interval on the effective n', async () => {
    const report = await run(
      { heavy: ['pass', 'pass', 'pass'], light: ['pass', 'fail', 'fail'] },
      { heavy: 3 },
    )
    // (3 × 1 + 1 × 1/3) / 4 = 5/6; Kish n = 4² / (3² + 1²) = 1.6; SE = √(5/6 × 1/6 / 1.6)
    expect(report.accuracy).toBeCloseTo(5 / 6, 12)
    expect(report.weightedAccuracy?.effectiveSampleSize).toBeCloseTo(1.6, 12)
    expect(report.weightedAccuracy?.standardError).toBeCloseTo(0.2946278, 6)
    expect(report.weightedAccuracy?.interval.low).toBeCloseTo(0.2063168, 6)
    expect(report.weightedAccuracy?.interval.high).toBeCloseTo(0.9897091, 6)
    expect(report.suiteStats[0]?.accuracy).toEqual(report.weightedAccuracy)
  })

  test('keeps errored trials out of the pass rate and calls a case with no failure but an error errored', async () => {
    const report = await run({ shaky: ['pass', 'error'], down: ['error', 'error'], fine: ['pass', 'pass'] })
    const cases = byId(report)
    expect(cases.shaky).toMatchObject({ passes: 1, trials: 1, errored: 1, passRate: 1, status: 'errored' })
    expect(cases.down).toMatchObject({
      passes: 0,
      trials: 0,
      errored: 2,
      passRate: null,
      passAtK: null,
      passHatK: null,
      status: 'errored',
    })
    // `down` has no verdict, so it is out of the accuracy rather than counted as 0
    expect(report.accuracy).toBe(1)
    expect(report.weightedAccuracy?.effectiveSampleSize).toBeCloseTo(2, 12)
  })

  test('averages latency and cost per trial; one unknown cost makes the case cost unknown', async () => {
    const suite = suiteOf([caseOf('a', { trials: 2 }), caseOf('b', { trials: 2 })])
    const target = targetOf((input, _signal, trial) =>
      transcriptOf(input, 'x', {
        latencyMs: 10 + trial * 20,
        costUsd: input === 'b' && trial === 1 ? null : 0.002,
      }),
    )
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
    const cases = byId(report)
    expect(cases.a).toMatchObject({ latencyMs: 20, costUsd: 0.002 })
    expect(cases.b).toMatchObject({ latencyMs: 20, costUsd: null })
  })

  test('hashes the rendered input with its vars, so the same case hashes the same on every run', async () => {
    const suite = suiteOf([
      caseOf('a', { input: 'hello u-1', vars: { user: 'u-1' } }),
      caseOf('skip', { skip: 'later' }),
    ])
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, targetFor({})) })
    const cases = byId(report)
    expect(cases.a?.inputHash).toBe(hashInput({ input: 'hello u-1', vars: { user: 'u-1' } }))
    expect(cases.skip).toMatchObject({
      status: 'skipped',
      trials: 0,
      passRate: null,
      latencyMs: 0,
      costUsd: null,
    })
  })

  test('bootstraps the mean per-case score, and writes cases and suite stats to summary.json', async () => {
    const report = await run({ a: ['pass', 'pass'], b: ['pass', 'fail'], c: ['fail', 'fail'] })
    const score = report.suiteStats[0]?.score
    expect(score?.mean).toBeCloseTo(0.5, 12)
    expect(score?.interval.low).toBeLessThan(0.5)
    expect(score?.interval.high).toBeGreaterThan(0.5)
    expect(report.suiteStats[0]?.graded).toBe(false)
    const summary = JSON.parse(readFileSync(join(report.dir, 'summary.json'), 'utf8')) as RunReport
    expect([...summary.cases].map((entry) => entry.id)).toEqual(['a', 'b', 'c'])
    expect(summary.suiteStats[0]?.meta).toMatchObject({
      suite: 'demo',
      targetId: 'test:target',
      modelId: null,
    })
  })

  test('keeps one small record per case whatever the number of trials', async () => {
    const suite = suiteOf([caseOf('many', { trials: 200, expect: { contains: 'ok' } })])
    const report = await runSuites([suite], {
      outDir: tempDir(),
      concurrency: 16,
      targets: targetsFor(suite, targetFor({})),
    })
    expect(report.cases).toHaveLength(1)
    expect([...report.cases][0]).toMatchObject({ passes: 200, trials: 200, passHatK: 1 })
  })
})
