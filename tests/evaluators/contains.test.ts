import { describe, expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

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
