import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { bootstrapMean, pairedBootstrap } from '../../src/stats/bootstrap.ts'
import { seededRandom } from '../../src/stats/random.ts'

describe('seededRandom', () => {
  test('gives the same sequence for the same seed', () => {
    const first = seededRandom(7)
    const second = seededRandom(7)
    const draws = Array.from({ length: 5 }, () => first())
    expect(draws).toEqual(Array.from({ length: 5 }, () => second()))
    expect(draws.every((draw) => draw >= 0 && draw < 1)).toBe(true)
    expect(seededRandom(8)()).not.toBe(draws[0])
  })
})

describe('bootstrapMean', () => {
  test('is deterministic for a given seed', () => {
    const values = [0.2, 0.9, 0.4, 0.7, 1, 0.1]
    expect(bootstrapMean(values, { seed: 42 })).toEqual(bootstrapMean(values, { seed: 42 }))
    expect(bootstrapMean(values, { seed: 42 })).not.toEqual(bootstrapMean(values, { seed: 43 }))
  })

  test('brackets the sample mean with an interval close to the normal one', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 0 : 1))
    const result = bootstrapMean(values)
    expect(result.mean).toBe(0.75)
    expect(result.standardError).toBeCloseTo(Math.sqrt((0.75 * 0.25) / 400), 2)
    expect(result.interval.low).toBeCloseTo(0.75 - 1.96 * 0.02165, 2)
    expect(result.interval.high).toBeCloseTo(0.75 + 1.96 * 0.02165, 2)
  })

  test('collapses to the value for a constant sample', () => {
    expect(bootstrapMean([0.5, 0.5, 0.5])).toEqual({
      mean: 0.5,
      standardError: 0,
      interval: { low: 0.5, high: 0.5 },
    })
  })

  test('rejects an empty sample', () => {
    expect(() => bootstrapMean([])).toThrow(
      new RangeError('`bootstrapMean`: needs at least one value, got none.'),
    )
  })

  test('its interval contains the mean and lies within the sample range', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }),
        (values) => {
          const { mean, interval } = bootstrapMean(values, { resamples: 200 })
          expect(interval.low).toBeLessThanOrEqual(mean + 1e-12)
          expect(interval.high).toBeGreaterThanOrEqual(mean - 1e-12)
          expect(interval.low).toBeGreaterThanOrEqual(Math.min(...values) - 1e-12)
          expect(interval.high).toBeLessThanOrEqual(Math.max(...values) + 1e-12)
        },
      ),
      { numRuns: 50 },
    )
  })
})

describe('pairedBootstrap', () => {
  test('estimates the mean of current − baseline per pair', () => {
    const result = pairedBootstrap([1, 1, 1, 0.5], [0, 1, 1, 0.5])
    expect(result.mean).toBe(-0.25)
    expect(result.interval.low).toBe(-0.75)
    expect(result.interval.high).toBe(0)
  })

  test('rejects samples that do not pair up', () => {
    expect(() => pairedBootstrap([1, 0], [1])).toThrow(
      new RangeError('`pairedBootstrap`: both samples must pair up, got 2 baseline and 1 current values.'),
    )
  })
})

test('a constant sample has a zero-width interval at its value, without resampling', () => {
  expect(
    bootstrapMean(
      Array.from({ length: 100_000 }, () => 1),
      { resamples: 2000 },
    ),
  ).toEqual({
    mean: 1,
    standardError: 0,
    interval: { low: 1, high: 1 },
  })
  expect(bootstrapMean([0.1, 0.1, 0.1])).toEqual({
    mean: 0.1,
    standardError: 0,
    interval: { low: 0.1, high: 0.1 },
  })
})
