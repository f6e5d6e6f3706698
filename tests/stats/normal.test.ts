import { describe, expect, test } from 'vitest'
import { normalCdf, normalQuantile } from '../../src/stats/normal.ts'

describe('normalCdf', () => {
  // values from scipy 1.17.1, scipy.stats.norm.cdf
  test.each([
    [-1.6448536269514722, 0.050000000000000044],
    [-3, 0.0013498980316300933],
    [0, 0.5],
    [0.5, 0.6914624612740131],
    [2.5, 0.9937903346742238],
    [-8, 6.22096057427174e-16],
  ])('Φ(%f) = %f to a relative 1.2e-7', (z, p) => {
    expect(Math.abs(normalCdf(z) - p) / p).toBeLessThan(1.2e-7)
  })

  test('inverts normalQuantile', () => {
    for (const p of [0.001, 0.05, 0.3, 0.8, 0.975]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 7)
  })
})
