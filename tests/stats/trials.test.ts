import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { isFlaky, passAtK, passHatK, summarizeTrials } from '../../src/stats/trials.ts'

function exactPassAtK(n: number, c: number, k: number): number {
  const choose = (m: number, r: number): bigint => {
    if (r > m) return 0n
    let result = 1n
    for (let i = 0; i < r; i++) result = (result * BigInt(m - i)) / BigInt(i + 1)
    return result
  }
  return 1 - Number((choose(n - c, k) * 1_000_000_000_000n) / choose(n, k)) / 1e12
}

describe('passAtK', () => {
  test.each([
    [5, 1, 1, 0.2],
    [10, 3, 5, 1 - 21 / 252],
    [100, 1, 10, 0.1],
    [200, 0, 10, 0],
    [4, 2, 3, 1],
    [3, 3, 1, 1],
  ])('n = %i, c = %i, k = %i gives %f', (n, c, k, expected) => {
    expect(passAtK(n, c, k)).toBeCloseTo(expected, 12)
  })

  test('matches 1 − C(n−c, k) / C(n, k) computed exactly', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 60 })
          .chain((n) => fc.tuple(fc.constant(n), fc.nat(n), fc.integer({ min: 1, max: n }))),
        ([n, c, k]) => {
          expect(passAtK(n, c, k)).toBeCloseTo(exactPassAtK(n, c, k), 9)
        },
      ),
    )
  })

  test('rejects k larger than the number of trials', () => {
    expect(() => passAtK(3, 1, 5)).toThrow(
      new RangeError('`passAtK`: `k` must be an integer between 1 and 3, got 5.'),
    )
  })
})

describe('passHatK', () => {
  // the unbiased estimator of τ-bench (Yao et al. 2024, "τ-bench", §4): pass^k = E[C(c, k) / C(n, k)]
  test('is C(c, k) / C(n, k), not the plug-in (c / n)^k', () => {
    expect(passHatK(5, 3, 2)).toBeCloseTo(3 / 10, 12) // C(3,2) / C(5,2); the plug-in gave 0.36
    expect(passHatK(10, 7, 3)).toBeCloseTo(35 / 120, 12) // C(7,3) / C(10,3)
    expect(passHatK(3, 2, 3)).toBe(0) // two passes cannot make three
    expect(passHatK(4, 4, 4)).toBe(1)
    expect(passHatK(4, 0, 1)).toBe(0)
  })

  test('averages to the true 0.125 at p = ½ over 3 trials, where the plug-in averaged 0.25', () => {
    // E over c ~ Binomial(3, ½): the plug-in gives Σ C(3,c)/8 · (c/3)³ = 0.25; the truth is ½³ = 0.125
    const binomial = [1, 3, 3, 1].map((ways) => ways / 8)
    const mean = binomial.reduce((sum, chance, c) => sum + chance * passHatK(3, c, 3), 0)
    expect(mean).toBeCloseTo(0.125, 12)
  })

  test('is unbiased: its mean over c ~ Binomial(n, p) is p^k', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 25 })
          .chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n }))),
        fc.double({ min: 0, max: 1, noNaN: true }),
        ([n, k], p) => {
          let mean = 0
          let ways = 1 // C(n, c), updated as c grows
          for (let c = 0; c <= n; c++) {
            mean += ways * p ** c * (1 - p) ** (n - c) * passHatK(n, c, k)
            ways = (ways * (n - c)) / (c + 1)
          }
          expect(mean).toBeCloseTo(p ** k, 9)
        },
      ),
    )
  })

  test('rejects k larger than the number of trials, for which no unbiased estimate exists', () => {
    expect(() => passHatK(3, 1, 5)).toThrow(
      new RangeError('`passHatK`: `k` must be an integer between 1 and 3, got 5.'),
    )
  })
})

describe('isFlaky', () => {
  test('is true only when some but not all trials passed', () => {
    expect([isFlaky(0, 3), isFlaky(1, 3), isFlaky(3, 3), isFlaky(0, 0)]).toEqual([false, true, false, false])
  })
})

describe('summarizeTrials', () => {
  test('reports pass rate, pass@k and pass^k with k defaulting to the trial count', () => {
    expect(summarizeTrials(2, 4)).toEqual({
      passes: 2,
      trials: 4,
      passRate: 0.5,
      k: 4,
      passAtK: 1,
      passHatK: 0, // C(2, 4) / C(4, 4): two passes cannot make four
      flaky: true,
    })
  })

  test('takes an explicit k', () => {
    const stats = summarizeTrials(3, 4, 2)
    expect(stats.passAtK).toBe(1) // one failure cannot fill two draws
    expect(stats.passHatK).toBeCloseTo(0.5, 12) // C(3, 2) / C(4, 2) = 3 / 6
  })
})
