import { expect, test } from 'vitest'
import type { Assertion } from '../../src/cases/schema.ts'
import { compileEvaluators } from '../../src/cases/compile-evaluators.ts'
import { ConfigError } from '../../src/errors.ts'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, fixturesDir, transcriptOf } from './helpers.ts'

const transcript = transcriptOf({ output: 'Refund of $20 issued', calls: [['refund', { amount: 20 }]] })

test('a boolean expression over `output` passes or fails', async () => {
  expect(await expectCheck('javascript', "output.includes('$20')", transcript)).toEqual({
    pass: true,
    reason: "`output.includes('$20')` returned true",
  })
  expect(await expectCheck('javascript', 'output.length < 5', transcript)).toEqual({
    pass: false,
    reason: '`output.length < 5` returned false',
  })
})

test('sees the transcript, the case vars and the context', async () => {
  const [evaluator] = compileEvaluators(
    {
      expect: {
        javascript: 'transcript.toolCalls[0].args.amount === vars.amount && context.caseId === "r1"',
      },
      assert: [],
    },
    { baseDir: fixturesDir },
  )
  const context = { caseId: 'r1', trial: 0, signal: new AbortController().signal, vars: { amount: 20 } }
  expect((await evaluator?.evaluate(transcript, context))?.pass).toBe(true)
})

test('a number is a score that passes at the threshold', async () => {
  const scored: Assertion = { kind: 'javascript', value: 'output.split(" ").length / 10', threshold: 0.4 }
  expect(await assertCheck(scored, transcript)).toEqual({
    pass: true,
    score: 0.4,
    reason: '`output.split(" ").length / 10` scored 0.40, at least 0.4',
  })
  expect(await expectCheck('javascript', '0.3', transcript)).toEqual({
    pass: false,
    score: 0.3,
    reason: '`0.3` scored 0.30, expected at least 0.5',
  })
  expect(await expectCheck('javascript', '7', transcript)).toEqual({
    pass: false,
    reason: '`7` returned 7; a score is a number in 0..1',
  })
})

test('a function body with `return` may return a verdict object', async () => {
  const body = [
    'const words = output.split(" ")',
    'return { pass: words.length > 3, score: 0.9, reason: `${words.length} words` }',
  ].join('\n')
  expect(await expectCheck('javascript', body, transcript)).toEqual({
    pass: true,
    score: 0.9,
    reason: '4 words',
  })
  expect(await expectCheck('javascript', 'return { pass: false }', transcript)).toEqual({
    pass: false,
    reason: '`return { pass: false }` returned pass: false',
  })
})

test('an async expression is awaited', async () => {
  expect(
    (await expectCheck('javascript', 'Promise.resolve(output.startsWith("Refund"))', transcript)).pass,
  ).toBe(true)
})

test('a throw at run time is a failed verdict with the message, not a crash', async () => {
  expect(await expectCheck('javascript', 'transcript.parsed.total > 0', transcript)).toEqual({
    pass: false,
    reason: "`transcript.parsed.total > 0` threw: Cannot read properties of undefined (reading 'total')",
  })
})

test('any other value fails, naming it', async () => {
  expect(await expectCheck('javascript', '"yes"', transcript)).toEqual({
    pass: false,
    reason: '`"yes"` returned "yes"; expected a boolean, a 0..1 score or { pass, score?, reason? }',
  })
})

test('a syntax error is a case-file error with its location and the expression', async () => {
  expect(
    await caseFileErrorOf([
      '  - id: refund',
      '    input: refund',
      "    expect: { javascript: 'output.includes(' }",
    ]),
  ).toBe(
    "checks.yaml:6:27: cases[0].expect.javascript: JavaScript syntax error in `output.includes(`: Unexpected token '}'",
  )
})

test('a syntax error in a hand-built case is a ConfigError', () => {
  expect(() =>
    compileEvaluators(
      { expect: {}, assert: [{ kind: 'javascript', value: 'return (' }] },
      { baseDir: fixturesDir },
    ),
  ).toThrow(ConfigError)
})

test('an expression that mentions `return` in a string is still an expression, and a body may `await`', async () => {
  expect((await expectCheck('javascript', "!output.includes('return')", transcript)).pass).toBe(true)
  const body = 'const ok = await Promise.resolve(output.length > 3)\nreturn ok'
  expect((await expectCheck('javascript', body, transcript)).pass).toBe(true)
})
