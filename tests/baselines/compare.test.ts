import { describe, expect, test } from 'vitest'
import { compareToBaseline } from '../../src/baselines/compare.ts'
import { baselineOf, many, meta, run, summary } from './fixtures.ts'

const atCreation = { now: new Date(meta.createdAt) }

describe('compareToBaseline: transitions', () => {
  test('labels every case of either run, sorted by id', () => {
    const baseline = baselineOf([
      summary('cancel', 'fail'),
      summary('greet', 'pass'),
      summary('old', 'pass'),
      summary('refund', 'pass'),
      summary('reworded', 'pass'),
    ])
    const current = run([
      summary('refund', 'fail'),
      summary('greet', 'pass'),
      summary('cancel', 'pass'),
      summary('reworded', 'pass', { inputHash: 'hash-reworded-v2' }),
      summary('brand-new', 'pass'),
    ])
    const comparison = compareToBaseline(current, baseline, atCreation)
    expect(comparison.cases.map((entry) => [entry.id, entry.transition, entry.passRateDelta])).toEqual([
      ['brand-new', 'new', null],
      ['cancel', 'improved', 1],
      ['greet', 'unchanged', 0],
      ['old', 'removed', null],
      ['refund', 'regressed', -1],
      ['reworded', 'input-changed', null],
    ])
    expect(comparison.counts).toEqual({
      regressed: 1,
      improved: 1,
      unchanged: 1,
      new: 1,
      removed: 1,
      'input-changed': 1,
      unscored: 0,
    })
  })

  test('compares pass rates across different trial counts exactly', () => {
    const baseline = baselineOf([summary('a', [2, 3]), summary('b', [3, 3]), summary('c', [1, 3])])
    const current = run([summary('a', [4, 6]), summary('b', [4, 5]), summary('c', [1, 2])])
    const transitions = compareToBaseline(current, baseline, atCreation).cases.map(
      (entry) => entry.transition,
    )
    expect(transitions).toEqual(['unchanged', 'regressed', 'improved'])
  })

  test('keeps cases without a verdict on one side out of the comparison, warning about erroring ones', () => {
    const baseline = baselineOf([summary('a', 'pass'), summary('b', 'pass')])
    const current = run([summary('a', [0, 0], { status: 'errored' }), summary('b', 'pass')])
    const comparison = compareToBaseline(current, baseline, atCreation)
    expect(comparison.cases[0]?.transition).toBe('unscored')
    expect(comparison.paired?.cases).toBe(1)
    expect(comparison.warnings).toEqual([
      '1 case(s) errored on every trial and were left out of the comparison: `a`.',
    ])
  })

  test('warns about cases whose input changed', () => {
    const baseline = baselineOf([summary('a', 'pass')])
    const current = run([summary('a', 'pass', { inputHash: 'other' })])
    expect(compareToBaseline(current, baseline, atCreation).warnings).toEqual([
      '1 case(s) changed input since the baseline and were left out of the comparison: `a`. ' +
        'Update the baseline with `--update-baseline` once the change is intended.',
    ])
  })
})

describe('compareToBaseline: paired test', () => {
  test('uses the exact McNemar test when every case ran once on both sides', () => {
    const baseline = baselineOf(many(20, 'pass'))
    const current = run([...many(5, 'fail', 'case'), ...many(20, 'pass').slice(5)])
    const { paired, accuracy } = compareToBaseline(current, baseline, atCreation)
    expect(accuracy).toEqual({ baseline: 1, current: 0.75, delta: -0.25 })
    expect(paired).toEqual({
      method: 'mcnemar-exact',
      cases: 20,
      regressions: 5,
      improvements: 0,
      ties: 15,
      baselineAccuracy: 1,
      currentAccuracy: 0.75,
      meanDifference: -0.25,
      interval: { low: -0.45, high: -0.1 },
      pValue: 0.0625,
      pRegression: 0.03125,
    })
  })

  test('uses a sign test on per-case pass rates when cases ran several trials', () => {
    const baseline = baselineOf(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => summary(id, [3, 3])))
    const current = run([
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => summary(id, [1, 3])),
      summary('g', [3, 3]),
      summary('h', [3, 3]),
    ])
    const { paired } = compareToBaseline(current, baseline, atCreation)
    expect(paired?.method).toBe('sign-test')
    expect([paired?.regressions, paired?.improvements, paired?.ties]).toEqual([6, 0, 2])
    expect(paired?.meanDifference).toBeCloseTo(-0.5, 12)
    expect(paired?.pValue).toBeCloseTo(0.03125, 12)
    expect(paired?.pRegression).toBeCloseTo(0.015625, 12)
  })

  test('finds nothing on identical runs', () => {
    const cases = [summary('a', [2, 3]), summary('b', 'pass'), summary('c', 'fail')]
    const comparison = compareToBaseline(run(cases), baselineOf(cases), atCreation)
    expect(comparison.paired).toMatchObject({
      meanDifference: 0,
      pValue: 1,
      pRegression: 1,
      interval: { low: 0, high: 0 },
    })
    expect(comparison.latency).toMatchObject({ p50Ratio: 1, p95Ratio: 1 })
    expect(comparison.cost.ratio).toBe(1)
    expect(comparison.warnings).toEqual([])
  })

  test('has no paired test when no case is shared', () => {
    const comparison = compareToBaseline(
      run([summary('a', 'pass')]),
      baselineOf([summary('b', 'pass')]),
      atCreation,
    )
    expect(comparison.paired).toBeNull()
    expect(comparison.accuracy).toEqual({ baseline: 1, current: 1, delta: 0 })
  })
})

describe('compareToBaseline: latency and cost', () => {
  test('gives p50 and p95 latency ratios and the per-trial cost ratio of the paired cases', () => {
    const baseline = baselineOf(
      [100, 200, 300, 400].map((ms, i) => summary(`c${i}`, 'pass', { latencyMs: ms })),
    )
    const current = run(
      [150, 300, 450, 1200].map((ms, i) => summary(`c${i}`, 'pass', { latencyMs: ms, costUsd: 0.002 })),
    )
    const { latency, cost } = compareToBaseline(current, baseline, atCreation)
    expect(latency.baseline).toEqual({ p50: 250, p95: 385, p99: 397 })
    expect(latency.p50Ratio).toBeCloseTo(1.5, 12)
    expect(latency.p95Ratio).toBeCloseTo(1087.5 / 385, 12)
    expect(cost).toEqual({ baselineUsd: 0.004, currentUsd: 0.008, ratio: 2 })
  })

  test('gives no cost ratio when any paired cost is unknown', () => {
    const baseline = baselineOf([summary('a', 'pass'), summary('b', 'pass', { costUsd: null })])
    const current = run([summary('a', 'pass'), summary('b', 'pass')])
    expect(compareToBaseline(current, baseline, atCreation).cost).toEqual({
      baselineUsd: null,
      currentUsd: 0.002,
      ratio: null,
    })
  })
})

describe('compareToBaseline: warnings', () => {
  test('warns when target, model, judge model or judge specs differ from the baseline', () => {
    const baseline = baselineOf([summary('a', 'pass')], {
      judgeModel: 'openai:gpt-4.1-mini',
      judgeSpecHashes: { polite: 'h1', helpful: 'h2' },
    })
    const current = run([summary('a', 'pass')], {
      targetId: 'agent:./agents/support-v2.ts',
      modelId: 'openai:gpt-4.1',
      judgeModel: 'openai:gpt-4.1-mini',
      judgeSpecHashes: { polite: 'h1-changed', accurate: 'h3' },
    })
    expect(compareToBaseline(current, baseline, atCreation).warnings).toEqual([
      "The target differs from the baseline's (`agent:./agents/support-v2.ts` now, `agent:./agents/support.ts` in the " +
        'baseline), so differences may not come from the agent alone. Update the baseline with `--update-baseline` ' +
        'once the change is intended.',
      "The model differs from the baseline's (`openai:gpt-4.1` now, `local` in the baseline), so differences may not " +
        'come from the agent alone. Update the baseline with `--update-baseline` once the change is intended.',
      'Judge specs changed since the baseline: `accurate`, `helpful`, `polite`, so judged scores may shift for ' +
        'reasons other than the agent. Update the baseline with `--update-baseline` once the change is intended.',
    ])
  })

  test('warns when the baseline is older than the configured age', () => {
    const baseline = baselineOf([summary('a', 'pass')])
    const later = { now: new Date('2026-12-17T00:00:00.000Z') }
    const comparison = compareToBaseline(run([summary('a', 'pass')]), baseline, {
      ...later,
      maxBaselineAgeDays: 30,
    })
    expect(comparison.baselineAgeDays).toBeCloseTo(45.5, 12)
    expect(comparison.warnings).toEqual([
      'The baseline is 45 days old (created 2026-11-01T12:00:00.000Z), over the 30-day limit ' +
        '(`max_baseline_age_days`). Refresh it with `evals run <case-file> --update-baseline`.',
    ])
    expect(compareToBaseline(run([summary('a', 'pass')]), baseline, later).warnings).toEqual([])
  })
})
