import { expect, test } from 'vitest'
import { peekCaseKey } from '../../src/report/case-key.ts'

const peek = (line: string): ReturnType<typeof peekCaseKey> => {
  const bytes = Buffer.from(`x\n${line}\ny`)
  return peekCaseKey(bytes, 2, bytes.length - 2)
}

test('reads suite, caseId and trial off the start of a line JSON.stringify wrote', () => {
  expect(peek('{"suite":"support","caseId":"case-1","trial":12,"status":"passed"}')).toEqual({
    suite: 'support',
    caseId: 'case-1',
    trial: 12,
  })
  expect(peek('{"suite":"sü","caseId":"☕","trial":0}')).toEqual({ suite: 'sü', caseId: '☕', trial: 0 })
})

test.each([
  ['another member order', '{"caseId":"c","suite":"s","trial":0}'],
  ['whitespace', '{"suite": "s","caseId":"c","trial":0}'],
  ['an escape in a string', '{"suite":"s\\"","caseId":"c","trial":0}'],
  ['a trial that is no plain integer', '{"suite":"s","caseId":"c","trial":1.5}'],
  ['a trial with a leading zero', '{"suite":"s","caseId":"c","trial":01}'],
  ['a trial as a string', '{"suite":"s","caseId":"c","trial":"1"}'],
  ['a cut-off line', '{"suite":"s","caseId":"c","trial":1'],
  ['a blank line', '  '],
])('leaves a line with %s to be parsed', (_, line) => {
  expect(peek(line)).toBeUndefined()
})
