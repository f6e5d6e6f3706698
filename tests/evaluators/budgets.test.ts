import { describe, expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

describe('latency_ms_lte', () => {
  test('passes within the limit and fails beyond it', async () => {
    expect(await expectCheck('latency_ms_lte', 5000, transcriptOf({ latencyMs: 5000 }))).toEqual({
      pass: true,
      reason: 'latency 5000 ms is within 5000 ms',
    })
    expect(await expectCheck('latency_ms_lte', 5000, transcriptOf({ latencyMs: 6200.4 }))).toEqual({
      pass: false,
      reason: 'latency 6200 ms exceeds the limit of 5000 ms',
    })
  })
})

describe('cost_usd_lte', () => {
  test('passes within the limit and fails beyond it', async () => {
    expect(await expectCheck('cost_usd_lte', 0.01, transcriptOf({ costUsd: 0.0042 }))).toEqual({
      pass: true,
      reason: 'cost $0.0042 is within $0.01',
    })
    expect(await expectCheck('cost_usd_lte', 0.5, transcriptOf({ costUsd: 1.25 }))).toEqual({
      pass: false,
      reason: 'cost $1.25 exceeds the limit of $0.50',
    })
  })

  test('errors when the cost is unknown, because unknown is neither zero nor over the limit', async () => {
    await expect(expectCheck('cost_usd_lte', 1, transcriptOf({ costUsd: null }))).rejects.toThrow(
      '`cost_usd_lte` needs the cost, and no price is known for the model: set `costUsd` on the result, or drop `cost_usd_lte`.',
    )
    await expect(
      expectCheck('cost_usd_lte', 1, transcriptOf({ costUsd: null, usage: null })),
    ).rejects.toThrow(
      '`cost_usd_lte` needs the cost, which this target does not report (transcript source `target`): give the framework agent itself as `agent:`',
    )
  })
})

describe('iterations_lte', () => {
  test('passes within the limit and fails beyond it', async () => {
    expect((await expectCheck('iterations_lte', 3, transcriptOf({ iterations: 3 }))).pass).toBe(true)
    expect(await expectCheck('iterations_lte', 3, transcriptOf({ iterations: 5 }))).toEqual({
      pass: false,
      reason: '5 iterations exceed the limit of 3',
    })
  })
})
