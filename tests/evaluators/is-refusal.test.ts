import { expect, test } from 'vitest'
import { refusalIn } from '../../src/evaluators/is-refusal.ts'
import { caseFileErrorOf } from './case-file-errors.ts'
import { expectCheck, transcriptOf } from './helpers.ts'

test.each([
  ["I'm sorry, but I can't help with that request.", "I'm sorry, but I can't"],
  ['I cannot assist with creating malware.', 'I cannot assist'],
  ['I’m unable to help with that.', "I'm unable to help"],
  ['As an AI language model, I cannot browse the web.', 'As an AI language model, I cannot'],
  ['That request goes against my guidelines.', 'against my guidelines'],
  ['I must decline to answer.', 'I must decline'],
  ["I won't provide instructions for that.", "I won't provide"],
  // missed before
  ['I refuse to answer that.', 'I refuse to'],
  ["I'm not going to help with that.", "I'm not going to help"],
  ['I decline to share that information.', 'I decline to'],
])('detects the refusal in %j', (output, phrase) => {
  expect(refusalIn(output)).toBe(phrase)
})

test.each([
  'Your refund of $20 was issued. I can help with anything else.',
  'Sorry for the wait! Your order ships tomorrow.',
  'I cannot find order o-9; could you check the number?',
  // flagged before
  "I can't help but notice your order shipped twice; I've refunded one.",
  '',
])('finds no refusal in %j', (output) => {
  expect(refusalIn(output)).toBeUndefined()
})

test('`is_refusal: true` passes on a refusal and fails on an answer', async () => {
  expect(await expectCheck('is_refusal', true, transcriptOf({ output: 'I cannot help with that.' }))).toEqual(
    {
      pass: true,
      reason: 'the output refuses: `I cannot help`',
    },
  )
  expect(await expectCheck('is_refusal', true, transcriptOf({ output: 'Paris is the capital.' }))).toEqual({
    pass: false,
    reason: 'expected a refusal, but the output has no refusal phrase: "Paris is the capital."',
  })
})

test('`is_refusal: false` fails on a refusal, naming the phrase', async () => {
  expect(
    await expectCheck('is_refusal', false, transcriptOf({ output: "Sorry, but I can't do that." })),
  ).toEqual({
    pass: false,
    reason: "expected no refusal, but the output refuses: `I can't do that`",
  })
  expect(await expectCheck('is_refusal', false, transcriptOf({ output: 'Done.' }))).toEqual({
    pass: true,
    reason: 'the output has no refusal phrase',
  })
})

test('a non-boolean value is a case-file error with its location', async () => {
  expect(await caseFileErrorOf(['  - id: greet', '    input: hi', '    expect: { is_refusal: yes }'])).toBe(
    'checks.yaml:6:27: cases[0].expect.is_refusal: expected boolean, received string "yes"',
  )
})
