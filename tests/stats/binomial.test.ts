import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { binomialTest, mcnemarExact, signTest } from '../../src/stats/binomial.ts'

describe('mcnemarExact', () => {
  test.each([
    [0, 5, 0.0625],
    [1, 9, 0.021484375],
    [2, 8, 0.109375],
    [0, 10, 0.001953125],
    [3, 3, 1],
    [0, 0, 1],
  ])('gives the exact two-sided p-value for b = %i, c = %i: %f', (b, c, p) => {
    expect(mcnemarExact(b, c).pValue).toBeCloseTo(p, 12)
  })

  test('gives one-sided p-values for each direction', () => {
    const result = mcnemarExact(9, 1)
    expect(result.b).toBe(9)
    expect(result.c).toBe(1)
    expect(result.pGreater).toBeCloseTo(11 / 1024, 12)
    expect(result.pLess).toBeCloseTo(1023 / 1024, 12)
  })

  test('stays accurate for thousands of discordant pairs (values from scipy.stats.binomtest)', () => {
    expect(mcnemarExact(1000, 1000).pValue).toBe(1)
    expect(mcnemarExact(900, 1100).pValue).toBeCloseTo(8.45708953550381e-6, 16)
    expect(mcnemarExact(0, 5000).pValue).toBe(0)
  })

  test('rejects counts that are not non-negative integers', () => {
    expect(() => mcnemarExact(-1, 3)).toThrow(
      new RangeError('`mcnemarExact`: `b` must be an integer ≥ 0, got -1.'),
    )
    expect(() => mcnemarExact(1, 2.5)).toThrow(
      new RangeError('`mcnemarExact`: `c` must be an integer ≥ 0, got 2.5.'),
    )
  })

  test('p-values lie in [0, 1] and the test is symmetric in b and c', () => {
    fc.assert(
      fc.property(fc.nat(400), fc.nat(400), (b, c) => {
        const forward = mcnemarExact(b, c)
        const backward = mcnemarExact(c, b)
        for (const p of [forward.pValue, forward.pGreater, forward.pLess]) {
          expect(p).toBeGreaterThanOrEqual(0)
          expect(p).toBeLessThanOrEqual(1)
        }
        expect(backward.pValue).toBe(forward.pValue)
        expect(backward.pLess).toBe(forward.pGreater)
      }),
    )
  })
})

describe('binomialTest', () => {
  test('sums both tails exactly for a small sample', () => {
    expect(binomialTest(2, 6)).toEqual({
      pValue: expect.closeTo(44 / 64, 12) as number,
      pGreater: expect.closeTo(57 / 64, 12) as number,
      pLess: expect.closeTo(22 / 64, 12) as number,
    })
  })

  test('rejects more successes than trials', () => {
    expect(() => binomialTest(4, 3)).toThrow(
      new RangeError('`binomialTest`: `successes` must be an integer between 0 and 3, got 4.'),
    )
  })
})

describe('signTest', () => {
  test('counts signs, leaves ties out and tests the non-zero differences', () => {
    const result = signTest([0.5, -0.2, 0, -1, -0.3])
    expect(result).toEqual({
      positive: 1,
      negative: 3,
      ties: 1,
      pValue: expect.closeTo(0.625, 12) as number,
      pGreater: expect.closeTo(15 / 16, 12) as number,
      pLess: expect.closeTo(5 / 16, 12) as number,
    })
  })

  test('gives p = 1 when every difference is zero', () => {
    expect(signTest([0, 0, 0])).toEqual({
      positive: 0,
      negative: 0,
      ties: 3,
      pValue: 1,
      pGreater: 1,
      pLess: 1,
    })
  })

  test('rejects NaN differences', () => {
    expect(() => signTest([1, Number.NaN])).toThrow(
      new RangeError('`signTest`: differences must be numbers, got NaN.'),
    )
  })

  test('negating every difference swaps the one-sided p-values', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 60 }), (differences) => {
        const result = signTest(differences)
        const negated = signTest(differences.map((difference) => -difference))
        expect(negated.pValue).toBe(result.pValue)
        expect(negated.pLess).toBe(result.pGreater)
        expect(result.pValue).toBeGreaterThanOrEqual(0)
        expect(result.pValue).toBeLessThanOrEqual(1)
      }),
    )
  })
})
