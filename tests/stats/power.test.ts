import { describe, expect, test } from 'vitest'
import { minimumDetectableDrop, passFailVariance, trialsToDetect } from '../../src/stats/power.ts'

// z₀.₉₅ + z₀.₈ = 2.4864748605243863 (scipy.stats.norm.ppf(0.95) + norm.ppf(0.8)); the MDE is that times the SE of
// the paired difference, SE² = Σ w² σ² (1/n_b + 1/n꜀) / (Σw)² (Miller 2024, "Adding Error Bars to Evals", §5)
const Z = 2.4864748605243863

describe('minimumDetectableDrop', () => {
  test('is (z₁₋α + z_power) · SE for 40 cases at 90%, a baseline at 10 trials and runs at 3', () => {
    const cases = Array.from({ length: 40 }, () => ({
      weight: 1,
      variance: 0.09,
      baselineTrials: 10,
      currentTrials: 3,
    }))
    // by hand: √(40 · 0.09 · (1/10 + 1/3)) / 40 · Z = 0.07764015263521364
    expect(minimumDetectableDrop(cases)).toBeCloseTo(0.07764015263521364, 9)
    expect(minimumDetectableDrop(cases)).toBeCloseTo((Z * Math.sqrt(40 * 0.09 * (1 / 10 + 1 / 3))) / 40, 9)
  })

  test('weighs each case by its weight', () => {
    const cases = [
      { weight: 1, variance: 0.25, baselineTrials: 5, currentTrials: 5 },
      { weight: 2, variance: 0.16, baselineTrials: 5, currentTrials: 5 },
      { weight: 3, variance: 0.09, baselineTrials: 5, currentTrials: 5 },
    ]
    // √((1·0.25 + 4·0.16 + 9·0.09) · 2/5) / 6 · Z = 0.34173328284616616
    expect(minimumDetectableDrop(cases)).toBeCloseTo(0.34173328284616616, 9)
  })

  test('is 0 when no case varies at all, so callers take variances from `passFailVariance`', () => {
    const cases = Array.from({ length: 20 }, () => ({
      weight: 1,
      variance: 0,
      baselineTrials: 3,
      currentTrials: 3,
    }))
    expect(minimumDetectableDrop(cases)).toBe(0)
  })

  test('is null when no case carries weight', () => {
    expect(
      minimumDetectableDrop([{ weight: 0, variance: 0.1, baselineTrials: 1, currentTrials: 1 }]),
    ).toBeNull()
  })
})

describe('passFailVariance', () => {
  test('is the unbiased c (n − c) / (n (n − 1)) when the trials disagree', () => {
    expect(passFailVariance(9, 10)).toBeCloseTo(9 / 90, 12)
    expect(passFailVariance(1, 2)).toBeCloseTo(0.5, 12)
  })

  test('averages to p (1 − p) over the c ~ Binomial(n, p) that disagree, as the unbiased estimator does', () => {
    // E[c (n − c)] / (n (n − 1)) = p (1 − p); the c = 0 and c = n terms of that sum are 0
    const n = 4
    const p = 0.3
    const ways = [1, 4, 6, 4, 1]
    const mean = ways.reduce(
      (sum, w, c) =>
        sum + (c === 0 || c === n ? 0 : w * p ** c * (1 - p) ** (n - c) * (passFailVariance(c, n) ?? 0)),
      0,
    )
    expect(mean).toBeCloseTo(p * (1 - p), 12)
  })

  test('takes trials that all agree half a trial from the edge, not as noiseless', () => {
    // p = (c + ½) / (n + 1): 10 of 10 → 10.5 / 11
    expect(passFailVariance(10, 10)).toBeCloseTo((10.5 / 11) * (0.5 / 11), 12)
    expect(passFailVariance(0, 3)).toBeCloseTo((0.5 / 4) * (3.5 / 4), 12)
    expect(passFailVariance(0, 0)).toBeNull()
  })
})

describe('trialsToDetect', () => {
  const cases = Array.from({ length: 40 }, () => ({ weight: 1, variance: 0.09, baselineTrials: 10 }))

  test('finds the fewest trials whose MDE reaches the drop', () => {
    // by hand, the smallest n with Z · √(40 · 0.09 · (1/10 + 1/n)) / 40 ≤ 0.05 is 13; with n on both sides, 12
    expect(trialsToDetect(cases, 0.05)).toBe(13)
    expect(trialsToDetect(cases, 0.05, { sameTrials: true })).toBe(12)
  })

  test('is null when the baseline’s own noise hides the drop at any number of trials', () => {
    // with the baseline fixed at 10 trials, SE never falls below √(40 · 0.09 / 10) / 40 = 0.0150, MDE 0.037
    expect(trialsToDetect(cases, 0.03)).toBeNull()
  })
})
