import { expect, test } from 'vitest'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

test('equals passes on the exact output and names both strings when they differ', async () => {
  expect(await expectCheck('equals', 'Paris', transcriptOf({ output: 'Paris' }))).toEqual({
    pass: true,
    reason: 'output equals "Paris"',
  })
  expect(await expectCheck('equals', 'Paris', transcriptOf({ output: 'paris' }))).toEqual({
    pass: false,
    reason: 'expected output "Paris", got "paris"',
  })
})

test('equals shows the exact strings when they differ only in whitespace', async () => {
  expect(await expectCheck('equals', 'Paris', transcriptOf({ output: 'Paris\n' }))).toEqual({
    pass: false,
    reason: 'expected output "Paris", got "Paris\\n"',
  })
})

test('the long form may trim whitespace and ignore case', async () => {
  const transcript = transcriptOf({ output: '  PARIS \n' })
  expect(
    await assertCheck({ kind: 'equals', value: 'Paris', trim: true, case_sensitive: false }, transcript),
  ).toEqual({ pass: true, reason: 'output equals "Paris" (trimmed, ignoring case)' })
  expect(await assertCheck({ kind: 'equals', value: 'Paris', trim: true }, transcript)).toEqual({
    pass: false,
    reason: 'expected output "Paris" (trimmed), got "PARIS"',
  })
})

test('a wrong value is a case-file error with its location', async () => {
  expect(
    await caseFileErrorOf([
      '  - id: capital',
      '    input: capital of France?',
      '    expect: { equals: 42 }',
      '    assert: [{ kind: equals, value: Paris, trim: yes }]',
    ]),
  ).toBe(
    [
      'checks.yaml:6:23: cases[0].expect.equals: expected string, received number 42',
      'checks.yaml:7:50: cases[0].assert[0].trim: expected boolean, received string "yes"',
    ].join('\n'),
  )
})
