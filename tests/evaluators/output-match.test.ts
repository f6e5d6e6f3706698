import { describe, expect, test } from 'vitest'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

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
