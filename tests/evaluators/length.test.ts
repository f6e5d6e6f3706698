import { expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

const transcript = transcriptOf({ output: 'twelve chars' })

test('min_length passes at the limit and fails below it', async () => {
  expect(await expectCheck('min_length', 12, transcript)).toEqual({
    pass: true,
    reason: 'output has 12 characters, at least 12',
  })
  expect(await expectCheck('min_length', 20, transcript)).toEqual({
    pass: false,
    reason: 'output has 12 characters, expected at least 20',
  })
})

test('max_length passes at the limit and fails above it', async () => {
  expect((await expectCheck('max_length', 12, transcript)).pass).toBe(true)
  expect(await expectCheck('max_length', 5, transcript)).toEqual({
    pass: false,
    reason: 'output has 12 characters, expected at most 5',
  })
})
