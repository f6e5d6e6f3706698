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
  test('is the pass rate to the power k', () => {
    expect(passHatK(5, 3, 2)).toBeCloseTo(0.36, 12)
    expect(passHatK(4, 4, 10)).toBe(1)
    expect(passHatK(4, 0, 1)).toBe(0)
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
      passHatK: 0.0625,
      flaky: true,
    })
  })

  test('takes an explicit k', () => {
    const stats = summarizeTrials(1, 4, 2)
    expect(stats.passAtK).toBeCloseTo(0.5, 12)
    expect(stats.passHatK).toBe(0.0625)
  })
})
