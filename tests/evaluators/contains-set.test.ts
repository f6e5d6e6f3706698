import { describe, expect, test } from 'vitest'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

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
  test('matches case by default, as promptfoo’s contains-any; `case_sensitive: false` ignores it', async () => {
    // promptfoo: `contains-any` is case-sensitive, `icontains-any` is not; before, ours ignored case by default
    expect(await expectCheck('contains_any', ['cancelled', 'REFUND'], transcript)).toEqual({
      pass: false,
      reason:
        'output contains none of `cancelled`, `REFUND` (matching case): "Your subscription is CANCELLED. A refund follows."',
    })
    const ignoring = await assertCheck(
      { kind: 'contains_any', value: ['cancelled'], case_sensitive: false },
      transcript,
    )
    expect(ignoring).toEqual({ pass: true, reason: 'output contains `cancelled`' })
  })

  test('passes when one string appears and names those found', async () => {
    expect(await expectCheck('contains_any', ['invoice', 'refund', 'CANCELLED'], transcript)).toEqual({
      pass: true,
      reason: 'output contains `refund`, `CANCELLED`',
    })
  })

  test('fails when none appears, naming them all', async () => {
    expect(await expectCheck('contains_any', ['invoice', 'email'], transcript)).toEqual({
      pass: false,
      reason:
        'output contains none of `invoice`, `email` (matching case): "Your subscription is CANCELLED. A refund follows."',
    })
  })
})

describe('contains_all', () => {
  test('needs every string, matching case as promptfoo’s contains-all, and names the missing ones', async () => {
    expect((await expectCheck('contains_all', ['refund', 'CANCELLED'], transcript)).pass).toBe(true)
    expect(
      (
        await assertCheck(
          { kind: 'contains_all', value: ['Refund', 'cancelled'], case_sensitive: false },
          transcript,
        )
      ).pass,
    ).toBe(true)
    expect(await expectCheck('contains_all', ['Refund', 'CANCELLED'], transcript)).toEqual({
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
