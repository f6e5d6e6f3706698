import { describe, expect, test } from 'vitest'
import { planTrials } from '../../src/baselines/plan.ts'
import { baselineOf, summary } from './fixtures.ts'

// z₀.₉₅ + z₀.₈ = 2.4864748605243863 (scipy.stats.norm.ppf); the MDE is Z · √(Σ σ² (1/n_b + 1/n)) / n cases
// (Miller 2024, "Adding Error Bars to Evals", §5). Reference values computed by hand from that formula.
const ids = Array.from({ length: 40 }, (_, i) => `case-${i}`)
const cases = ids.map((id) => ({ id, weight: 1 }))

describe('planTrials', () => {
  test('reads each case’s variance from a 10-trial baseline and tabulates the drop it can see', () => {
    // every case 9 of 10: unbiased variance 9 · 1 / (10 · 9) = 0.1
    const baseline = baselineOf(ids.map((id) => summary(id, [9, 10])))
    const plan = planTrials(cases, baseline, { trials: [3], drop: 0.05 })
    expect(plan.variance).toEqual({ kind: 'baseline', trials: 10 })
    expect(plan.baselineTrials).toBe(10)
    // Z · √(40 · 0.1 · (1/10 + 1/3)) / 40 and Z · √(40 · 0.1 · 2/3) / 40
    expect(plan.rows[0]?.againstBaseline).toBeCloseTo(0.08183990673679975, 8)
    expect(plan.rows[0]?.sameTrials).toBeCloseTo(0.10150991110904531, 8)
    // the smallest n with Z · √(40 · 0.1 · (1/10 + 1/n)) / 40 ≤ 0.05 is 17; with n on both sides, 13
    expect(plan.forDrop).toEqual({ drop: 0.05, againstBaseline: 17, sameTrials: 13 })
  })

  test('says when the baseline’s own trials hide the drop, however many the run makes', () => {
    const baseline = baselineOf(ids.map((id) => summary(id, [9, 10])))
    // the floor is Z · √(40 · 0.1 / 10) / 40 = 0.0393 at infinitely many run trials; 4.5 points needs 33
    expect(planTrials(cases, baseline, { drop: 0.045 }).forDrop?.againstBaseline).toBe(33)
    expect(planTrials(cases, baseline, { drop: 0.035 }).forDrop?.againstBaseline).toBeNull()
  })

  test('takes a one-trial baseline at the suite’s pass rate, half a trial from the edge', () => {
    const ten = ids.slice(0, 10)
    const baseline = baselineOf(ten.map((id) => summary(id, 'pass')))
    const plan = planTrials(
      ten.map((id) => ({ id, weight: 1 })),
      baseline,
      { trials: [3] },
    )
    expect(plan.variance).toEqual({ kind: 'baseline-rate', passRate: 10.5 / 11 })
    // p = 10.5/11 for all ten: Z · √(10 · p(1 − p) · (1 + 1/3)) / 10 and Z · √(10 · p(1 − p) · 2/3) / 10
    expect(plan.rows[0]?.againstBaseline).toBeCloseTo(0.18912128388933128, 8)
    expect(plan.rows[0]?.sameTrials).toBeCloseTo(0.13372894230485227, 8)
  })

  test('assumes a pass rate without a baseline, and leaves out cases of weight 0', () => {
    const plan = planTrials([...cases, { id: 'ignored', weight: 0 }], null, {
      trials: [3],
      assumedPassRate: 0.9,
    })
    expect(plan).toMatchObject({
      cases: 40,
      baselineTrials: null,
      variance: { kind: 'assumed', passRate: 0.9 },
    })
    expect(plan.rows[0]?.againstBaseline).toBeNull()
    // Z · √(40 · 0.09 · 2/3) / 40
    expect(plan.rows[0]?.sameTrials).toBeCloseTo(
      (2.4864748605243863 * Math.sqrt(40 * 0.09 * (2 / 3))) / 40,
      8,
    )
  })
})
