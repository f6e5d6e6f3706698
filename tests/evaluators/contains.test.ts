import { describe, expect, test } from 'vitest'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

const transcript = transcriptOf({ output: 'Your subscription is CANCELLED. A refund follows.' })

describe('contains', () => {
  test('matches ignoring case', async () => {
    expect(await expectCheck('contains', 'cancelled', transcript)).toEqual({
      pass: true,
      reason: 'output contains `cancelled`',
    })
  })

  test('requires every string of a list and names the missing ones', async () => {
    expect(await expectCheck('contains', ['refund', 'invoice', 'email'], transcript)).toEqual({
      pass: false,
      reason:
        'output does not contain `invoice`, `email` (ignoring case): "Your subscription is CANCELLED. A refund follows."',
    })
  })
})

describe('not_contains', () => {
  test('passes when none of the strings appear', async () => {
    expect(await expectCheck('not_contains', ['password', 'ssn'], transcript)).toEqual({
      pass: true,
      reason: 'output contains none of `password`, `ssn`',
    })
  })

  test('names the strings that appear, ignoring case', async () => {
    expect(await expectCheck('not_contains', 'Refund', transcript)).toEqual({
      pass: false,
      reason: 'output contains `Refund` (ignoring case): "Your subscription is CANCELLED. A refund follows."',
    })
  })
})

describe('case_sensitive', () => {
  test('`contains` ignores case by default and matches it exactly with `case_sensitive: true`', async () => {
    const transcript = transcriptOf({ output: 'Call the api now' })
    expect(await assertCheck({ kind: 'contains', value: 'API' }, transcript)).toMatchObject({ pass: true })
    expect(await assertCheck({ kind: 'contains', value: 'API', case_sensitive: true }, transcript)).toEqual({
      pass: false,
      reason: 'output does not contain `API` (matching case): "Call the api now"',
    })
  })

  test('`not_contains` with `case_sensitive: true` lets other casings through', async () => {
    const transcript = transcriptOf({ output: 'error handled' })
    const check = { kind: 'not_contains', value: 'ERROR', case_sensitive: true } as const
    expect(await assertCheck(check, transcript)).toMatchObject({ pass: true })
    expect(await assertCheck({ ...check, case_sensitive: false }, transcript)).toEqual({
      pass: false,
      reason: 'output contains `ERROR` (ignoring case): "error handled"',
    })
  })
})
