import { describe, expect, test } from 'vitest'
import { pairedRateTest, type PairedRate } from '../../src/stats/paired-rates.ts'

const one = (weight: number, bp: number, bn: number, cp: number, cn: number): PairedRate => ({
  weight,
  baselinePasses: bp,
  baselineTrials: bn,
  currentPasses: cp,
  currentTrials: cn,
})

/** All (baseline, current) pass counts of independent binomial cases, with their probability. */
function* outcomes(
  rates: readonly number[],
  baselineTrials: number,
  currentTrials: number,
): Generator<{ chance: number; cases: PairedRate[] }> {
  const binomial = (n: number, p: number): number[] => {
    const out: number[] = []
    let ways = 1
    for (let c = 0; c <= n; c++) {
      out.push(ways * p ** c * (1 - p) ** (n - c))
      ways = (ways * (n - c)) / (c + 1)
    }
    return out
  }
  const walk = function* (
    i: number,
    chance: number,
    cases: PairedRate[],
  ): Generator<{
    chance: number
    cases: PairedRate[]
  }> {
    if (i === rates.length) {
      yield { chance, cases }
      return
    }
    const p = rates[i] as number
    const before = binomial(baselineTrials, p)
    const after = binomial(currentTrials, p)
    for (const [bp, pb] of before.entries())
      for (const [cp, pc] of after.entries())
        yield* walk(i + 1, chance * pb * pc, [...cases, one(1, bp, baselineTrials, cp, currentTrials)])
  }
  yield* walk(0, 1, [])
}

describe('pairedRateTest', () => {
  test('is the exact McNemar test with one trial a side (values from scipy.stats.binomtest)', () => {
    // 7 cases passed only in the baseline, 2 only now, 11 both times: binomtest(7, 9, 0.5, alternative='greater')
    const cases = [
      ...Array.from({ length: 7 }, () => one(1, 1, 1, 0, 1)),
      ...Array.from({ length: 2 }, () => one(1, 0, 1, 1, 1)),
      ...Array.from({ length: 11 }, () => one(1, 1, 1, 1, 1)),
    ]
    const result = pairedRateTest(cases)
    expect(result?.pRegression).toBeCloseTo(0.08984375, 12)
    expect(result?.pValue).toBeCloseTo(0.1796875, 12) // binomtest(7, 9, 0.5).pvalue
    expect(result?.meanDifference).toBeCloseTo(-5 / 20, 12)
    expect(result?.resamples).toBe('exact')
  })

  test('is Fisher’s exact test for one case (values from scipy.stats.fisher_exact, alternative="less")', () => {
    expect(pairedRateTest([one(1, 10, 10, 1, 3)])?.pRegression).toBeCloseTo(0.038461538461538464, 12)
    expect(pairedRateTest([one(1, 9, 10, 0, 3)])?.pRegression).toBeCloseTo(0.013986013986013986, 12)
    // cases that passed every trial on both sides change nothing
    const padded = [one(1, 9, 10, 0, 3), ...Array.from({ length: 30 }, () => one(1, 10, 10, 3, 3))]
    expect(pairedRateTest(padded)?.pRegression).toBeCloseTo(0.013986013986013986, 12)
  })

  test('never rejects more often than α when nothing changed, counted exactly over every outcome', () => {
    // three cases, baseline at 3 trials and runs at 2: 4³ · 3³ = 1728 outcomes, each weighed by its probability
    for (const rates of [
      [0.9, 0.7, 0.5],
      [0.95, 0.95, 0.6],
      [0.5, 0.5, 0.5],
    ]) {
      let rejected = 0
      let total = 0
      for (const { chance, cases } of outcomes(rates, 3, 2)) {
        total += chance
        if ((pairedRateTest(cases)?.pRegression ?? 1) <= 0.05) rejected += chance
      }
      expect(total).toBeCloseTo(1, 12)
      expect(rejected).toBeLessThanOrEqual(0.05)
    }
  })

  test('draws the null distribution by Monte Carlo when weights and trials differ, matching enumeration', () => {
    const cases = Array.from({ length: 8 }, (_, i) =>
      one(1 + (i % 5) / 3, 7 + (i % 3), 10 + (i % 3), i % 4 === 0 ? 1 : 2, 3 + (i % 2)),
    )
    const sampled = pairedRateTest(cases, { resamples: 20_000 })
    expect(sampled?.resamples).toBe(20_000)
    // the exact lower tail, by brute force over every split of every case (independent of the code under test)
    const total = cases.reduce((sum, c) => sum + c.weight, 0)
    const observed = cases.reduce(
      (sum, c) =>
        sum + (c.weight / total) * (c.currentPasses / c.currentTrials - c.baselinePasses / c.baselineTrials),
      0,
    )
    let distribution = new Map<number, number>([[0, 1]])
    for (const c of cases) {
      const passes = c.baselinePasses + c.currentPasses
      const n = c.baselineTrials + c.currentTrials
      const choose = (a: number, b: number): number => {
        let r = 1
        for (let i = 0; i < b; i++) r = (r * (a - i)) / (i + 1)
        return b < 0 || b > a ? 0 : r
      }
      const next = new Map<number, number>()
      for (let x = 0; x <= c.currentTrials; x++) {
        const chance =
          (choose(passes, x) * choose(n - passes, c.currentTrials - x)) / choose(n, c.currentTrials)
        if (chance === 0) continue
        const d = (c.weight / total) * (x / c.currentTrials - (passes - x) / c.baselineTrials)
        for (const [value, p] of distribution) {
          const key = Math.round((value + d) * 1e9) / 1e9
          next.set(key, (next.get(key) ?? 0) + p * chance)
        }
      }
      distribution = next
    }
    let exact = 0
    for (const [value, p] of distribution) if (value <= observed + 1e-9) exact += p
    expect(exact).toBeGreaterThan(0.01)
    expect(exact).toBeLessThan(0.5)
    // Monte Carlo error at 20,000 draws: √(p (1 − p) / 20000) ≤ 0.0036; allow four of them
    expect(Math.abs((sampled?.pRegression ?? 1) - exact)).toBeLessThan(0.015)
  })

  test('takes the normal approximation past 2000 informative cases, close to the exact McNemar test', () => {
    const cases = [
      ...Array.from({ length: 1300 }, () => one(1, 1, 1, 0, 1)),
      ...Array.from({ length: 1200 }, () => one(1, 0, 1, 1, 1)),
    ]
    const result = pairedRateTest(cases)
    expect(result?.resamples).toBe('normal')
    // z = −0.04 / 0.02 = −2, Φ(−2) = 0.0227501; scipy.stats.binomtest(1300, 2500, alternative='greater') = 0.0238409
    expect(result?.pRegression).toBeCloseTo(0.0227501319481792, 6)
    expect(Math.abs((result?.pRegression ?? 1) - 0.023840932610521722)).toBeLessThan(0.002)
  })

  test('weighs cases: a heavy case that drops outweighs light ones that rise', () => {
    const cases = [one(10, 10, 10, 0, 3), one(1, 0, 10, 3, 3), one(1, 0, 10, 3, 3)]
    const result = pairedRateTest(cases)
    expect(result?.meanDifference).toBeCloseTo((10 * -1 + 1 + 1) / 12, 12)
    expect(result?.baselineRate).toBeCloseTo(10 / 12, 12)
    expect(result?.pRegression).toBeLessThan(0.05)
  })

  test('is the same for the same input, so reports reproduce', () => {
    const cases = Array.from({ length: 30 }, (_, i) => one(1 + (i % 5), 7, 10, i % 3, 3))
    expect(pairedRateTest(cases)).toEqual(pairedRateTest(cases))
  })

  test('is null without a case that both runs scored and that carries weight', () => {
    expect(pairedRateTest([one(0, 1, 1, 0, 1), one(1, 0, 0, 1, 1)])).toBeNull()
  })
})
