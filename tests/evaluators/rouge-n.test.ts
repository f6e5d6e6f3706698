import { expect, test } from 'vitest'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

const reference = 'the cat sat on the mat'

test('ROUGE-1 is the share of reference words the output has, counts clipped, case and punctuation ignored', async () => {
  // reference unigrams: the×2, cat, sat, on, mat (6); the output has the×1, cat, on, mat → 4/6
  expect(await expectCheck('rouge_n', reference, transcriptOf({ output: 'The cat is on a mat!' }))).toEqual({
    pass: false,
    score: 4 / 6,
    reason: 'ROUGE-1 0.67, expected at least 0.75: "The cat is on a mat!"',
  })
  expect(
    await expectCheck('rouge_n', reference, transcriptOf({ output: 'The cat sat on the mat.' })),
  ).toEqual({
    pass: true,
    score: 1,
    reason: 'ROUGE-1 1.00, at least 0.75',
  })
})

test('`n` and `threshold` set the n-gram length and the bar; the best reference counts', async () => {
  // reference bigrams: the cat, cat sat, sat on, on the, the mat (5); the output has the cat, on the, the mat → 3/5
  const transcript = transcriptOf({ output: 'the cat lay on the mat' })
  expect(
    await assertCheck(
      { kind: 'rouge_n', value: ['a dog barked', reference], n: 2, threshold: 0.6 },
      transcript,
    ),
  ).toEqual({ pass: true, score: 3 / 5, reason: 'ROUGE-2 0.60, at least 0.6' })
})

test('an `n` above 4 is a case-file error with its location', async () => {
  expect(
    await caseFileErrorOf(['  - id: greet', '    input: hi', '    expect: { rouge_n: { value: hi, n: 5 } }']),
  ).toBe('checks.yaml:6:40: cases[0].expect.rouge_n.n: Too big: expected number to be <=4')
})
