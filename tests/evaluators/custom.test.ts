import { expect, test } from 'vitest'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

test('a function returning a boolean becomes a verdict with its name', async () => {
  expect(await expectCheck('custom', './checks.ts#isPolite', transcriptOf({ output: 'Thank you!' }))).toEqual(
    {
      pass: true,
      reason: '`isPolite` in checks.ts returned true',
    },
  )
  expect(await expectCheck('custom', './checks.ts#isPolite', transcriptOf({ output: 'No.' }))).toEqual({
    pass: false,
    reason: '`isPolite` in checks.ts returned false',
  })
})

test('a function may return its own verdict, sync or async', async () => {
  expect(
    await assertCheck({ kind: 'custom', value: './checks.ts#explains' }, transcriptOf({ calls: ['a'] })),
  ).toEqual({
    pass: true,
    score: 0.5,
    reason: '1 tool calls',
  })
  expect((await expectCheck('custom', './checks.ts#answersLater', transcriptOf())).pass).toBe(true)
})

test('a result that is neither a boolean nor a verdict throws, so the case is errored', async () => {
  await expect(expectCheck('custom', './checks.ts#returnsNumber', transcriptOf())).rejects.toThrow(
    '`returnsNumber` in checks.ts returned 42; expected a boolean or a { pass, reason } verdict',
  )
})

test('a missing export throws with a suggestion, or the exports it found', async () => {
  await expect(expectCheck('custom', './checks.ts#isPolit', transcriptOf())).rejects.toThrow(
    /checks\.ts has no function export `isPolit`; did you mean `isPolite`\?$/,
  )
  await expect(expectCheck('custom', './checks.ts#notAFunction', transcriptOf())).rejects.toThrow(
    /checks\.ts has no function export `notAFunction`; it exports `answersLater`, `explains`, `isPolite`, `returnsNumber`$/,
  )
})
