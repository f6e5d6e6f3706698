import type { CaseResult, NamedVerdict } from '../../src/model/case-result.ts'
import { syntheticResult, syntheticTranscript } from './synthetic.ts'

/**
 * Results covering every shape a JUnit testcase takes: each status, trials, a conversation, a partial pass, tags,
 * an error with and without a stack, and text that XML must escape (quotes, tabs, line breaks, control
 * characters, lone surrogates, `]]>`). Suite `billing` is listed but has no cases; `extra` is not listed.
 */
export function junitCases(): CaseResult[] {
  const hostile = 'a "quoted" <tag> & \'x\'\ttab\r\nline \u001b[31mred\u0000 \ud800 ]]> end ]]>'
  const failed = syntheticResult(7)
  const errored = syntheticResult(3)
  const passed = syntheticResult(20)
  if (failed.status !== 'failed' || errored.status !== 'errored' || passed.status !== 'passed')
    throw new Error('synthetic cases 7, 3 and 20 should fail, error and pass')
  const flaky = (trial: number): CaseResult => ({ ...passed, caseId: 'flaky', trial, durationMs: 10 + trial })
  return [
    ...[0, 1, 2, 3, 7, 15, 16].map((i) => syntheticResult(i)),
    flaky(0),
    { ...failed, caseId: 'flaky', trial: 1 },
    flaky(2),
    { ...passed, caseId: 'partly', partial: true, verdicts: [...passed.verdicts, skippedJudge()] },
    {
      ...failed,
      caseId: `hostile ${hostile}`,
      tags: ['<b>', 'a,b'],
      verdicts: [{ evaluator: `odd ${hostile}`, weight: 1, pass: false, reason: hostile }],
      transcript: syntheticTranscript(1, hostile),
    },
    { ...failed, caseId: 'failed without a failing check', verdicts: [] },
    {
      ...errored,
      caseId: 'errored with a stack',
      error: { name: 'TypeError', message: hostile, stack: `TypeError: ${hostile}\n    at x (y.ts:1:2)` },
    },
    { ...errored, caseId: 'errored without a message', error: { name: 'Error', message: '' } },
    conversation(),
    { ...passed, suite: 'extra', caseId: 'elsewhere' },
  ]
}

function skippedJudge(): NamedVerdict {
  return {
    evaluator: 'rubric',
    weight: 1,
    pass: false,
    skipped: true,
    reason: 'judge `rubric` skipped: no judge model',
  }
}

function conversation(): CaseResult {
  const base = syntheticResult(9)
  if (base.status !== 'failed') throw new Error('synthetic case 9 should fail')
  return {
    ...base,
    caseId: 'chat',
    turns: [
      { user: 'hi', output: 'hello there', tools: [], latencyMs: 5 },
      { user: 'refund o-7', output: 'cannot ]]> refund', tools: ['lookup', 'refund'], latencyMs: 7 },
    ],
    verdicts: [
      { evaluator: 'contains', weight: 1, pass: true, reason: 'output contains `hello`', turn: 1 },
      {
        evaluator: 'contains',
        weight: 1,
        pass: false,
        reason: 'output does not contain `refunded`',
        turn: 2,
      },
      { evaluator: 'max_length', weight: 1, pass: true, reason: 'short enough' },
    ],
  }
}
