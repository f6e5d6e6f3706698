import { describe, expect, test } from 'vitest'
import { assertCheck, caseFileErrorOf, expectCheck, transcriptOf } from './helpers.ts'

const transcript = transcriptOf({ output: 'Your subscription is CANCELLED. A refund follows.' })

describe('icontains', () => {
  test('matches every string ignoring case, and names the missing ones', async () => {
    expect(await expectCheck('icontains', ['Cancelled', 'REFUND'], transcript)).toEqual({
      pass: true,
      reason: 'output contains `Cancelled`, `REFUND`',
    })
    expect(await expectCheck('icontains', ['refund', 'invoice'], transcript)).toEqual({
      pass: false,
      reason:
        'output lacks `invoice` of `refund`, `invoice` (ignoring case): "Your subscription is CANCELLED. A refund follows."',
    })
  })

  test('has no `case_sensitive` option', async () => {
    expect(
      await caseFileErrorOf([
        '  - id: greet',
        '    input: hi',
        '    assert: [{ kind: icontains, value: hi, case_sensitive: true }]',
      ]),
    ).toBe(
      'checks.yaml:6:44: cases[0].assert[0].case_sensitive: unknown key `case_sensitive`; expected one of `value`, `kind`, `weight`, `not`',
    )
  })
})

describe('contains_any', () => {
  test('passes when one string appears and names those found', async () => {
    expect(await expectCheck('contains_any', ['invoice', 'refund', 'cancelled'], transcript)).toEqual({
      pass: true,
      reason: 'output contains `refund`, `cancelled`',
    })
  })

  test('fails when none appears, naming them all', async () => {
    expect(await expectCheck('contains_any', ['invoice', 'email'], transcript)).toEqual({
      pass: false,
      reason:
        'output contains none of `invoice`, `email` (ignoring case): "Your subscription is CANCELLED. A refund follows."',
    })
  })

  test('`case_sensitive: true` matches case exactly', async () => {
    const verdict = await assertCheck(
      { kind: 'contains_any', value: ['cancelled'], case_sensitive: true },
      transcript,
    )
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toMatch(/^output contains none of `cancelled` \(matching case\)/)
  })
})

describe('contains_all', () => {
  test('needs every string and names the missing ones', async () => {
    expect((await expectCheck('contains_all', ['refund', 'cancelled'], transcript)).pass).toBe(true)
    expect(
      await assertCheck(
        { kind: 'contains_all', value: ['Refund', 'CANCELLED'], case_sensitive: true },
        transcript,
      ),
    ).toEqual({
      pass: false,
      reason:
        'output lacks `Refund` of `Refund`, `CANCELLED` (matching case): "Your subscription is CANCELLED. A refund follows."',
    })
  })

  test('an empty list is a case-file error with its location', async () => {
    expect(
      await caseFileErrorOf(['  - id: greet', '    input: hi', '    expect: { contains_all: [] }']),
    ).toBe('checks.yaml:6:29: cases[0].expect.contains_all: Too small: expected array to have >=1 items')
  })
})
