import { describe, expect, test } from 'vitest'
import { fisherLess, hypergeometric } from '../../src/stats/hypergeometric.ts'

describe('hypergeometric', () => {
  test('gives C(K, x) C(N − K, n − x) / C(N, n) over its support', () => {
    // N = 13 trials, K = 11 passes, n = 3 drawn: x runs from 1 to 3; C(13, 3) = 286
    const { low, pmf } = hypergeometric(13, 11, 3)
    expect(low).toBe(1)
    expect([...pmf].map((p) => p * 286)).toEqual([
      expect.closeTo(11, 9), // C(11,1) C(2,2)
      expect.closeTo(110, 9), // C(11,2) C(2,1)
      expect.closeTo(165, 9), // C(11,3)
    ])
  })

  test('sums to 1 for large populations', () => {
    const { pmf } = hypergeometric(2000, 700, 900)
    expect(pmf.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 10)
  })
})

describe('fisherLess', () => {
  // values from scipy 1.17.1: fisher_exact([[cur_pass, cur_fail], [base_pass, base_fail]], alternative='less')
  test.each([
    [10, 10, 1, 3, 0.038461538461538464],
    [10, 10, 0, 3, 0.0034965034965034965],
    [9, 10, 0, 3, 0.013986013986013986],
    [9, 10, 1, 3, 0.10839160839160841],
    [1, 1, 0, 1, 0.5],
    [10, 10, 0, 1, 0.09090909090909091],
    [30, 40, 10, 20, 0.051010844033469685],
  ])('baseline %i/%i, now %i/%i gives scipy’s p = %f', (bp, bn, cp, cn, p) => {
    expect(fisherLess(bp, bn, cp, cn)).toBeCloseTo(p, 12)
  })

  test('is 1 when the current run did at least as well', () => {
    expect(fisherLess(2, 3, 3, 3)).toBe(1)
  })

  test('rejects counts that do not fit', () => {
    expect(() => fisherLess(4, 3, 0, 1)).toThrow(
      new RangeError('`fisherLess`: `baselinePasses` must be an integer between 0 and 3, got 4.'),
    )
  })
})
