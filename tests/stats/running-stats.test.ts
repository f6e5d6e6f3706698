import { describe, expect, test } from 'vitest'
import { RunningStats } from '../../src/stats/running-stats.ts'
import { normalQuantile } from '../../src/stats/normal.ts'

describe('RunningStats', () => {
  test('tracks count, mean, sample variance, min and max one value at a time', () => {
    const stats = new RunningStats()
    for (const value of [2, 4, 4, 4, 5, 5, 7, 9]) stats.push(value)
    expect(stats.count).toBe(8)
    expect(stats.mean).toBe(5)
    expect(stats.variance).toBeCloseTo(32 / 7, 12)
    expect(stats.standardError).toBeCloseTo(Math.sqrt(32 / 7 / 8), 12)
    expect([stats.min, stats.max]).toEqual([2, 9])
  })

  test('reports zero spread for fewer than two values', () => {
    const stats = new RunningStats().push(3)
    expect([stats.mean, stats.variance, stats.standardError]).toEqual([3, 0, 0])
  })
})

describe('normalQuantile', () => {
  test('matches standard normal quantiles in the centre and the tails', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12)
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 8)
    expect(normalQuantile(0.995)).toBeCloseTo(2.575829304, 8)
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326347874, 8)
  })

  test('rejects probabilities outside (0, 1)', () => {
    expect(() => normalQuantile(1)).toThrow(
      new RangeError('`normalQuantile`: `p` must be between 0 and 1 (exclusive), got 1.'),
    )
  })
})
