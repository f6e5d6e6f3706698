import { expect, test } from 'vitest'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

test('passes within the default 5 edits, with the normalized similarity as score', async () => {
  expect(await expectCheck('levenshtein', 'kitten', transcriptOf({ output: 'sitting' }))).toEqual({
    pass: true,
    score: 1 - 3 / 7,
    reason: 'output is 3 edits from "kitten", at most 5',
  })
})

test('fails beyond `max_distance`, naming the distance and the output', async () => {
  expect(
    await assertCheck(
      { kind: 'levenshtein', value: 'kitten', max_distance: 2 },
      transcriptOf({ output: 'sitting' }),
    ),
  ).toEqual({
    pass: false,
    score: 1 - 3 / 7,
    reason: 'output is 3 edits from "kitten" (similarity 0.57), expected at most 2: "sitting"',
  })
})

test('measures against the nearest of several references; the shorthand may be the long form', async () => {
  expect(
    await expectCheck(
      'levenshtein',
      { value: ['Lyon', 'Paris'], max_distance: 1 },
      transcriptOf({ output: 'Pariss' }),
    ),
  ).toEqual({ pass: true, score: 1 - 1 / 6, reason: 'output is 1 edit from "Paris", at most 1' })
  expect((await expectCheck('levenshtein', 'same', transcriptOf({ output: 'same' }))).score).toBe(1)
})

test('a negative `max_distance` is a case-file error with its location', async () => {
  expect(
    await caseFileErrorOf([
      '  - id: greet',
      '    input: hi',
      '    expect: { levenshtein: { value: hi, max_distance: -1 } }',
    ]),
  ).toBe('checks.yaml:6:55: cases[0].expect.levenshtein.max_distance: Too small: expected number to be >=0')
})
