import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { percentile, percentiles } from '../../src/stats/percentile.ts'

describe('percentile', () => {
  test('interpolates linearly between closest ranks (type 7)', () => {
    expect(percentile([4, 1, 3, 2], 0.5)).toBe(2.5)
    expect(percentile([1, 2, 3, 4], 0.95)).toBeCloseTo(3.85, 12)
    expect(percentile([1, 2, 3, 4], 0)).toBe(1)
    expect(percentile([1, 2, 3, 4], 1)).toBe(4)
    expect(percentile([7], 0.99)).toBe(7)
  })

  test('rejects an empty sample and q outside [0, 1]', () => {
    expect(() => percentile([], 0.5)).toThrow(
      new RangeError('`percentile`: needs at least one value, got none.'),
    )
    expect(() => percentile([1], 95)).toThrow(
      new RangeError('`percentile`: `q` must be between 0 and 1, got 95.'),
    )
  })

  test('lies between the smallest and the largest value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          const value = percentile(values, q)
          expect(value).toBeGreaterThanOrEqual(Math.min(...values))
          expect(value).toBeLessThanOrEqual(Math.max(...values))
        },
      ),
    )
  })
})

describe('percentiles', () => {
  test('gives p50, p95 and p99 as NumPy does', () => {
    expect(percentiles([15, 20, 35, 40, 50])).toEqual({
      p50: 35,
      p95: expect.closeTo(48, 12) as number,
      p99: expect.closeTo(49.6, 12) as number,
    })
  })

  test('is null for an empty sample', () => {
    expect(percentiles([])).toBeNull()
  })
})
