import { expect, test } from 'vitest'
import { bleuScore } from '../../src/evaluators/bleu.ts'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

test('an output equal to the reference scores 1, ignoring case and punctuation', async () => {
  expect(
    await expectCheck('bleu', 'The cat sat on the mat.', transcriptOf({ output: 'the cat sat on the mat' })),
  ).toEqual({ pass: true, score: 1, reason: 'BLEU 1.00, at least 0.5' })
})

test('BLEU-4 with add-one smoothing for n ≥ 2 and the brevity penalty, worked by hand', () => {
  const candidate = 'the cat sat on mat'.split(' ')
  const reference = 'the cat sat on the mat'.split(' ')
  // p1 = 5/5; p2 = (3+1)/(4+1); p3 = (2+1)/(3+1); p4 = (1+1)/(2+1); BP = e^(1 − 6/5)
  const expected =
    Math.exp(1 - 6 / 5) * Math.exp((Math.log(1) + Math.log(4 / 5) + Math.log(3 / 4) + Math.log(2 / 3)) / 4)
  expect(bleuScore(candidate, [reference])).toBeCloseTo(expected, 12)
  expect(bleuScore([], [reference])).toBe(0)
  expect(bleuScore(['dog'], [reference])).toBe(0)
})

test('clips counts by the most any reference has and takes the closest reference length', () => {
  // "the the the": p1 = 2/3 clipped by the first reference's two "the"; p2 = (0+1)/(2+1); p3 = (0+1)/(1+1);
  // p4 = (0+1)/(1+1), as three words hold no 4-gram: 0 of at least 1. The 2-word reference is the closest length
  // to 3 words, so c > r and BP = 1. NLTK 3.10.3 gives the same: 0.4854917717073234
  const score = bleuScore(['the', 'the', 'the'], ['the cat sat on the mat'.split(' '), 'the cat'.split(' ')])
  expect(score).toBeCloseTo(
    Math.exp((Math.log(2 / 3) + Math.log(1 / 3) + Math.log(1 / 2) + Math.log(1 / 2)) / 4),
    12,
  )
  expect(score).toBeCloseTo(0.4854917717073234, 12)
})

// nltk.translate.bleu_score.sentence_bleu(references, hypothesis, smoothing_function=SmoothingFunction().method2),
// NLTK 3.10.3, on the same token lists; outputs under 4 words scored up to 0.405 too high before (1.0 for one word)
test.each<[string, string[], string[][], number]>([
  ['one word', ['paris'], [['paris']], 0.5946035575013605],
  ['two words', ['the', 'cat'], [['the', 'cat']], 0.7071067811865476],
  ['three words', ['the', 'cat', 'sat'], [['the', 'cat', 'sat']], 0.8408964152537145],
  ['four words', ['the', 'cat', 'sat', 'down'], [['the', 'cat', 'sat', 'down']], 1],
  [
    'one word changed',
    'the cat is on the mat'.split(' '),
    ['the cat sat on the mat'.split(' ')],
    0.48549177170732344,
  ],
  ['a short candidate', ['a', 'cat'], ['the cat sat on the mat'.split(' ')], 0.06766764161830635],
  [
    'a missing word',
    'the cat sat on mat'.split(' '),
    ['the cat sat on the mat'.split(' ')],
    0.6511126026643229,
  ],
  [
    'two references',
    ['hello', 'world', 'foo'],
    [
      ['hello', 'there', 'world'],
      ['say', 'hello', 'world', 'foo', 'bar'],
    ],
    0.8408964152537145,
  ],
  ['no word in common', ['dog'], [['cat']], 0],
])('matches NLTK’s sentence_bleu with method 2 on %s', (_, candidate, references, nltk) => {
  expect(bleuScore(candidate, references)).toBeCloseTo(nltk, 12)
})

test('fails below the threshold with the score in the reason', async () => {
  const verdict = await assertCheck(
    { kind: 'bleu', value: ['the cat sat on the mat', 'a cat was sitting on the mat'], threshold: 0.9 },
    transcriptOf({ output: 'the cat sat on mat' }),
  )
  expect(verdict.pass).toBe(false)
  expect(verdict.reason).toBe(
    `BLEU ${verdict.score?.toFixed(2)}, expected at least 0.9: "the cat sat on mat"`,
  )
})

test('a threshold above 1 is a case-file error with its location', async () => {
  expect(
    await caseFileErrorOf([
      '  - id: greet',
      '    input: hi',
      '    assert: [{ kind: bleu, value: hi, threshold: 2 }]',
    ]),
  ).toBe('checks.yaml:6:50: cases[0].assert[0].threshold: Too big: expected number to be <=1')
})
