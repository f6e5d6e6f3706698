import { describe, expect, test } from 'vitest'
import { compileEvaluators } from '../../src/cases/compile-evaluators.ts'
import { assertCheck, expectCheck, fixturesDir, transcriptOf } from './helpers.ts'

const transcript = transcriptOf({ output: '  Order #1234 shipped on 2026-11-02.\n' })

describe('output', () => {
  test('passes on the exact output', async () => {
    expect((await expectCheck('output', 'ok', transcriptOf({ output: 'ok' }))).pass).toBe(true)
  })

  test('shows both texts when they differ', async () => {
    expect(await expectCheck('output', 'Order shipped', transcript)).toEqual({
      pass: false,
      reason: 'expected output "Order shipped", got "Order #1234 shipped on 2026-11-02."',
    })
  })
})

describe('output_regex', () => {
  test('passes when the output matches', async () => {
    expect(await expectCheck('output_regex', '#\\d{4}', transcript)).toEqual({
      pass: true,
      reason: 'output matches /#\\d{4}/',
    })
  })

  test('applies flags from the long form', async () => {
    expect(
      (await assertCheck({ kind: 'output_regex', value: '^\\s*order', flags: 'im' }, transcript)).pass,
    ).toBe(true)
  })

  test.each(['g', 'y', 'gy'])(
    'with flag %s, the same output passes every trial: no lastIndex carried from one to the next',
    async (flags) => {
      // one compiled check, as a case's trials share it; before, trials 2 and 4 failed (pass, fail, pass, fail)
      const [check] = compileEvaluators(
        { expect: {}, assert: [{ kind: 'output_regex', value: 'Order', flags }] },
        { baseDir: fixturesDir },
      )
      const output = transcriptOf({ output: 'Order #1234 shipped' })
      const context = { caseId: 'case', trial: 0, signal: new AbortController().signal, vars: {} }
      const trials = []
      for (let trial = 0; trial < 4; trial++)
        trials.push((await check?.evaluate(output, { ...context, trial }))?.pass)
      expect(trials).toEqual([true, true, true, true])
    },
  )

  test('shows the pattern and the output when it does not match', async () => {
    expect(await expectCheck('output_regex', 'refund \\d+', transcript)).toEqual({
      pass: false,
      reason: 'output does not match /refund \\d+/: "Order #1234 shipped on 2026-11-02."',
    })
  })
})

describe('starts_with and ends_with', () => {
  test('ignore surrounding whitespace', async () => {
    expect((await expectCheck('starts_with', 'Order #', transcript)).pass).toBe(true)
    expect((await expectCheck('ends_with', '2026-11-02.', transcript)).pass).toBe(true)
  })

  test('trim the expected value as they trim the output, so a value written with spaces still matches', async () => {
    // before, the output lost its leading spaces and the value kept them: never a match
    expect((await expectCheck('starts_with', '  Order #', transcript)).pass).toBe(true)
    expect((await expectCheck('ends_with', '2026-11-02.\n', transcript)).pass).toBe(true)
  })

  test('show the start or the end that was seen', async () => {
    expect(await expectCheck('starts_with', 'Dear', transcript)).toEqual({
      pass: false,
      reason: 'expected output to start with "Dear", got "Order #1234 shipped on 2026-11-02."',
    })
    expect(await expectCheck('ends_with', 'Thanks!', transcript)).toEqual({
      pass: false,
      reason: 'expected output to end with "Thanks!", got "Order #1234 shipped on 2026-11-02."',
    })
  })
})
