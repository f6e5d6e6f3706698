import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { weightedAccuracy, wilsonInterval } from '../../src/stats/proportion.ts'

describe('wilsonInterval', () => {
  test.each([
    [8, 10, 0.490162, 0.943318],
    [0, 10, 0, 0.277533],
    [10, 10, 0.722467, 1],
    [1, 2, 0.094531, 0.905469],
    [45, 50, 0.786398, 0.956524],
  ])('gives the 95%% interval for %i of %i: [%f, %f]', (successes, n, low, high) => {
    const interval = wilsonInterval(successes, n)
    expect(interval.low).toBeCloseTo(low, 6)
    expect(interval.high).toBeCloseTo(high, 6)
  })

  test('widens with the confidence level', () => {
    const interval = wilsonInterval(8, 10, { confidence: 0.99 })
    expect(interval.low).toBeCloseTo(0.400819, 6)
    expect(interval.high).toBeCloseTo(0.959869, 6)
  })

  test('is [0, 1] for an empty sample', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 })
  })

  test('rejects more successes than the sample size', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(
      new RangeError('`wilsonInterval`: need 0 ≤ successes ≤ n, got 3 of 2.'),
    )
  })

  test('rejects a confidence level outside (0, 1)', () => {
    expect(() => wilsonInterval(1, 2, { confidence: 95 })).toThrow(
      new RangeError('`wilsonInterval`: `confidence` must be between 0 and 1 (exclusive), got 95.'),
    )
  })

  test('always contains the point estimate and stays inside [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, share) => {
          const successes = Math.round(share * n)
          const { low, high } = wilsonInterval(successes, n)
          expect(low).toBeGreaterThanOrEqual(0)
          expect(low).toBeLessThanOrEqual(successes / n)
          expect(high).toBeGreaterThanOrEqual(successes / n)
          expect(high).toBeLessThanOrEqual(1)
        },
      ),
    )
  })
})

describe('weightedAccuracy', () => {
  test('with equal weights is the plain accuracy with a Wilson interval over the cases', () => {
    const result = weightedAccuracy([1, 1, 0, 1].map((passRate) => ({ weight: 1, passRate })))
    expect(result?.accuracy).toBe(0.75)
    expect(result?.effectiveSampleSize).toBe(4)
    expect(result?.standardError).toBeCloseTo(0.216506, 6)
    expect(result?.interval.low).toBeCloseTo(0.300642, 6)
    expect(result?.interval.high).toBeCloseTo(0.954413, 6)
  })

  test('shrinks the effective sample size when weights are unequal', () => {
    const result = weightedAccuracy([
      { weight: 3, passRate: 1 },
      { weight: 1, passRate: 0 },
    ])
    expect(result?.accuracy).toBe(0.75)
    expect(result?.effectiveSampleSize).toBeCloseTo(1.6, 12)
    expect(result?.cases).toBe(2)
    expect(result?.interval.low).toBeCloseTo(0.169138, 6)
    expect(result?.interval.high).toBeCloseTo(0.977881, 6)
  })

  test('averages per-case pass rates from trials; a case of weight 0 is counted but moves nothing', () => {
    const result = weightedAccuracy([
      { weight: 1, passRate: 2 / 3 },
      { weight: 0, passRate: 1 },
      { weight: 2, passRate: 1 / 3 },
    ])
    expect(result?.accuracy).toBeCloseTo(4 / 9, 12)
    expect(result?.cases).toBe(3)
  })

  test('is null when no case carries weight', () => {
    expect(weightedAccuracy([])).toBeNull()
    expect(weightedAccuracy([{ weight: 0, passRate: 1 }])).toBeNull()
  })

  test('rejects a negative weight', () => {
    expect(() => weightedAccuracy([{ weight: -1, passRate: 1 }])).toThrow(
      new RangeError(
        '`weightedAccuracy`: need weight ≥ 0 and 0 ≤ passRate ≤ 1, got weight -1 and passRate 1.',
      ),
    )
  })

  test('its interval always contains the accuracy', () => {
    const rate = fc.record({
      weight: fc.double({ min: 0, max: 10, noNaN: true }),
      passRate: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    fc.assert(
      fc.property(fc.array(rate, { minLength: 1, maxLength: 50 }), (rates) => {
        const result = weightedAccuracy(rates)
        if (result === null) return
        expect(result.interval.low).toBeLessThanOrEqual(result.accuracy)
        expect(result.interval.high).toBeGreaterThanOrEqual(result.accuracy)
        expect(result.interval.low).toBeGreaterThanOrEqual(0)
        expect(result.interval.high).toBeLessThanOrEqual(1)
      }),
    )
  })
})
