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
  // z₀.₉₅ + z₀.₈ (scipy.stats.norm.ppf(0.95) + norm.ppf(0.8)), for the minimum detectable drop (Miller 2024, §5)
  const Z = 2.4864748605243863

  test('is the exact McNemar test when every case ran once on both sides', () => {
    const baseline = baselineOf(many(20, 'pass'))
    const current = run([...many(5, 'fail', 'case'), ...many(20, 'pass').slice(5)])
    const { paired, accuracy } = compareToBaseline(current, baseline, atCreation)
    expect(accuracy).toEqual({ baseline: 1, current: 0.75, delta: -0.25 })
    expect(paired).toEqual({
      method: 'stratified-permutation',
      nullDistribution: 'exact',
      cases: 20,
      regressions: 5,
      improvements: 0,
      ties: 15,
      baselineAccuracy: 1,
      currentAccuracy: 0.75,
      meanDifference: -0.25,
      interval: { low: -0.45, high: -0.1 },
      // scipy.stats.binomtest(5, 5, 0.5): two-sided 0.0625, alternative='greater' 0.03125
      pValue: 0.0625,
      pRegression: 0.03125,
      power: {
        alpha: 0.05,
        power: 0.8,
        // five cases split 1 of 2 trials (unbiased variance ½ each); fifteen passed 2 of 2, taken at p = 2.5/3
        // (variance 5/36): Z · √((5 · ½ + 15 · 5/36) · (1 + 1)) / 20; Acklam's Φ⁻¹ is good to a relative 1.2e-9
        minimumDetectableDrop: expect.closeTo(
          (Z * Math.sqrt((5 * 0.5 + (15 * 5) / 36) * 2)) / 20,
          8,
        ) as number,
        baselineTrials: 1,
        currentTrials: 1,
      },
    })
  })

  test('uses how far each case moved over its trials, where a sign test counted only the direction', () => {
    const baseline = baselineOf(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => summary(id, [3, 3])))
    const current = run([
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => summary(id, [1, 3])),
      summary('g', [3, 3]),
      summary('h', [3, 3]),
    ])
    const { paired } = compareToBaseline(current, baseline, atCreation)
    expect(paired?.method).toBe('stratified-permutation')
    expect([paired?.regressions, paired?.improvements, paired?.ties]).toEqual([6, 0, 2])
    expect(paired?.meanDifference).toBeCloseTo(-0.5, 12)
    // each of a–f holds 4 passes in 6 trials; the 3 current trials get x of them with C(4,x) C(2,3−x) / C(6,3):
    // P(x = 1) = 4/20. All six at 1 is 0.2⁶ = 6.4e-5 (the sign test said 0.0156); the null is symmetric, so twice that
    expect(paired?.pRegression).toBeCloseTo(0.2 ** 6, 15)
    expect(paired?.pValue).toBeCloseTo(2 * 0.2 ** 6, 15)
  })

  test('pairs a baseline made at 10 trials with a run at 3', () => {
    const baseline = baselineOf([summary('a', [10, 10]), summary('b', [9, 10]), summary('c', [10, 10])])
    const current = run([summary('a', [0, 3]), summary('b', [3, 3]), summary('c', [3, 3])])
    const { paired } = compareToBaseline(current, baseline, atCreation)
    expect(paired?.meanDifference).toBeCloseTo((-1 + 0.1 + 0) / 3, 12)
    // only a and b vary; a: 10 of 13 passes, P(x = 0 of 3) = C(3,3) / C(13,3) = 1/286; b: 12 of 13, x ∈ {2, 3}
    // with P(x = 2) = 3/13. T = (x_a + x_b) (1/3 + 1/10) / 3 + const, and x_a + x_b ≤ 3 only for (0, 3), (1, 2), (0, 2)
    const pA = [1 / 286, 30 / 286] // P(x_a = 0), P(x_a = 1): C(10,1) C(3,2) / C(13,3)
    const pB = { 2: 3 / 13, 3: 10 / 13 }
    expect(paired?.pRegression).toBeCloseTo((pA[0] ?? 0) * (pB[2] + pB[3]) + (pA[1] ?? 0) * pB[2], 12)
    expect(paired?.power).toMatchObject({ baselineTrials: 10, currentTrials: 3 })
  })

  test('weighs each case by its weight, in the accuracy and the test', () => {
    const baseline = baselineOf([summary('heavy', [3, 3]), summary('light', [0, 3])])
    const current = run([summary('heavy', [0, 3], { weight: 3 }), summary('light', [3, 3], { weight: 1 })])
    const { accuracy, paired } = compareToBaseline(current, baseline, atCreation)
    expect(accuracy).toEqual({ baseline: 0.75, current: 0.25, delta: -0.5 })
    expect(paired?.meanDifference).toBeCloseTo(-0.5, 12)
    // unweighted, one case fell and one rose as far: no change at all
    const unweighted = compareToBaseline(
      run([summary('heavy', [0, 3]), summary('light', [3, 3])]),
      baseline,
      atCreation,
    )
    expect(unweighted.paired?.meanDifference).toBe(0)
  })

  test('finds nothing on identical runs', () => {
    const cases = [summary('a', [2, 3]), summary('b', 'pass'), summary('c', 'fail')]
    const comparison = compareToBaseline(run(cases), baselineOf(cases), atCreation)
    expect(comparison.paired).toMatchObject({
      meanDifference: 0,
      pValue: 1,
      // P(x ≤ 2) for a's 4 passes in 6 trials split 3 and 3: 1 − C(4,3) C(2,0) / C(6,3) = 16/20
      pRegression: expect.closeTo(0.8, 12) as number,
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
