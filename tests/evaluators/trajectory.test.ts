import { describe, expect, test } from 'vitest'
import { argsMatch, type OrderMode } from '../../src/evaluators/trajectory.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

describe('order modes against the expected steps `a` → `b`', () => {
  const matrix: [calls: string[], results: Record<OrderMode, [pass: boolean, score: number]>][] = [
    [
      ['a', 'b'],
      {
        strict: [true, 1],
        unordered: [true, 1],
        subset: [true, 1],
        superset: [true, 1],
        'in-order': [true, 1],
      },
    ],
    [
      ['b', 'a'],
      {
        strict: [false, 0.5],
        unordered: [true, 1],
        subset: [true, 1],
        superset: [true, 1],
        'in-order': [false, 0.5],
      },
    ],
    [
      ['a', 'x', 'b'],
      {
        strict: [false, 0.67],
        unordered: [false, 0.8],
        subset: [false, 0.67],
        superset: [true, 1],
        'in-order': [true, 1],
      },
    ],
    [
      ['a'],
      {
        strict: [false, 0.5],
        unordered: [false, 0.67],
        subset: [true, 1],
        superset: [false, 0.5],
        'in-order': [false, 0.5],
      },
    ],
    [
      [],
      {
        strict: [false, 0],
        unordered: [false, 0],
        subset: [true, 1],
        superset: [false, 0],
        'in-order': [false, 0],
      },
    ],
  ]
  for (const [calls, results] of matrix) {
    for (const [order, [pass, score]] of Object.entries(results)) {
      test(`${order} ${pass ? 'accepts' : 'rejects'} [${calls.join(', ')}] with score ${score}`, async () => {
        const verdict = await expectCheck('trajectory', { steps: ['a', 'b'], order }, transcriptOf({ calls }))
        expect(verdict.pass).toBe(pass)
        expect(verdict.score).toBeCloseTo(score, 2)
      })
    }
  }
})

describe('argument modes against the expected args { amount: 10 }', () => {
  const expected = { amount: 10 }
  test.each([
    [{ amount: 10 }, { exact: true, ignore: true, subset: true, superset: true }],
    [
      { amount: 10, currency: 'EUR' },
      { exact: false, ignore: true, subset: false, superset: true },
    ],
    [{}, { exact: false, ignore: true, subset: true, superset: false }],
    [{ amount: 11 }, { exact: false, ignore: true, subset: false, superset: false }],
  ])('args %j match as %j', (actual, results) => {
    for (const [mode, result] of Object.entries(results)) {
      expect([mode, argsMatch(expected, actual, mode as 'exact')]).toEqual([mode, result])
    }
  })

  test('a list of key paths compares only those keys', () => {
    const nested = { order: { id: 7 }, note: 'x' }
    expect(argsMatch(nested, { order: { id: 7, lines: 2 }, note: 'y' }, ['order.id'])).toBe(true)
    expect(argsMatch(nested, { order: { id: 8 } }, ['order.id'])).toBe(false)
  })

  test('a step without args matches any arguments', () => {
    expect(argsMatch(undefined, { anything: true }, 'exact')).toBe(true)
  })
})

describe('trajectory verdicts', () => {
  test('say what was expected, what was called, and the partial credit', async () => {
    const transcript = transcriptOf({ calls: ['lookup_user', 'refund'] })
    const verdict = await expectCheck('tool_order', ['lookup_user', 'cancel_subscription'], transcript)
    expect(verdict).toEqual({
      pass: false,
      score: 0.5,
      reason:
        'expected in-order trajectory `lookup_user` → `cancel_subscription`, agent called `lookup_user` → `refund` (1/2 steps matched, score 0.50)',
    })
  })

  test('point at arguments when only they differ', async () => {
    const transcript = transcriptOf({
      calls: [
        ['lookup_user', { id: 'u-1' }],
        ['refund', { amount: 11 }],
      ],
    })
    const verdict = await expectCheck(
      'trajectory',
      ['lookup_user', { tool: 'refund', args: { amount: 10 } }],
      transcript,
    )
    expect(verdict).toEqual({
      pass: false,
      score: 0.5,
      reason:
        'expected strict trajectory `lookup_user` → `refund`, agent called `lookup_user` → `refund` (1/2 steps matched, score 0.50); the tool names match but arguments differ: `refund` expected {"amount":10}, got {"amount":11}',
    })
  })

  test('pass with a summary when the calls match', async () => {
    const verdict = await expectCheck(
      'tool_order',
      ['lookup_user', 'refund'],
      transcriptOf({ calls: ['lookup_user', 'email', 'refund'] }),
    )
    expect(verdict).toEqual({
      pass: true,
      score: 1,
      reason:
        'agent called `lookup_user` → `email` → `refund`, matching the in-order trajectory `lookup_user` → `refund` (2/2 steps matched, score 1.00)',
    })
  })

  test('a threshold lets partial credit pass', async () => {
    const transcript = transcriptOf({ calls: ['a', 'x'] })
    expect(
      (
        await assertCheck(
          { kind: 'trajectory', steps: ['a', 'b'], order: 'in-order', threshold: 0.5 },
          transcript,
        )
      ).pass,
    ).toBe(true)
    expect(
      (
        await assertCheck(
          { kind: 'trajectory', steps: ['a', 'b'], order: 'in-order', threshold: 0.6 },
          transcript,
        )
      ).pass,
    ).toBe(false)
  })

  test('a step can override the argument mode', async () => {
    const transcript = transcriptOf({ calls: [['refund', { amount: 10, currency: 'EUR' }]] })
    const step = { tool: 'refund', args: { amount: 10 } }
    expect((await expectCheck('trajectory', [step], transcript)).pass).toBe(true)
    expect((await expectCheck('trajectory', [{ ...step, args_mode: 'exact' }], transcript)).pass).toBe(false)
    expect((await expectCheck('trajectory', { steps: [step], args_mode: 'exact' }, transcript)).pass).toBe(
      false,
    )
  })
})
