import { expect, test } from 'vitest'
import type { TraceStep } from '../../src/types.ts'
import { expectCheck, transcriptOf } from './helpers.ts'

const step = { startedAt: 0, durationMs: 0 }
const trip: TraceStep = {
  ...step,
  type: 'guardrail',
  stage: 'output',
  name: 'pii',
  action: 'rewrite',
  reason: 'found email',
}
const passed: TraceStep = {
  ...step,
  type: 'guardrail',
  stage: 'input',
  name: 'injection',
  action: 'pass',
  reason: 'nothing found',
}
const asked: TraceStep = {
  ...step,
  type: 'approval',
  callId: 'c',
  name: 'refund',
  status: 'pending',
  reason: 'needs approval',
}

test('`guardrail_tripped` counts blocks, rewrites and warnings, not passes, by name and stage', async () => {
  const transcript = transcriptOf({ trace: [passed, trip] })

  expect(await expectCheck('guardrail_tripped', true, transcript)).toEqual({
    pass: true,
    reason: 'tripped: `pii rewrite (output)`',
  })
  expect((await expectCheck('guardrail_tripped', 'injection', transcript)).pass).toBe(false)
  expect((await expectCheck('guardrail_tripped', false, transcriptOf({ trace: [passed] }))).pass).toBe(true)
})

test('`interrupted` sees an approval asked for, even when scripted decisions resumed the run', async () => {
  const resumed = transcriptOf({ trace: [asked], stopReason: 'final' })

  expect(await expectCheck('interrupted', ['refund'], resumed)).toEqual({
    pass: true,
    reason: 'approval was asked for `refund`',
  })
  expect((await expectCheck('interrupted', ['send_email'], resumed)).pass).toBe(false)
  expect((await expectCheck('interrupted', false, transcriptOf({ trace: [] }))).pass).toBe(true)
})

test('checks that need what the target did not report error with how to provide it', async () => {
  await expect(expectCheck('guardrail_tripped', true, transcriptOf())).rejects.toThrow(
    "`guardrail_tripped` needs the run's trace, and this target reported none",
  )
  await expect(
    expectCheck('answered_by', 'billing', transcriptOf({ messages: [{ role: 'assistant', content: 'hi' }] })),
  ).rejects.toThrow(
    '`answered_by` needs which agent answered, which this transcript does not say (source `target`): run an Agent with `handoffs`',
  )
})

test("`answered_by` takes the transcript's `agent` (an adapter's, after handoffs) over the messages", async () => {
  const messages = [{ role: 'assistant' as const, content: 'done', agent: 'triage' }]
  const adapted = transcriptOf({ agent: 'refunds', messages, source: 'adapter:openai-agents' })

  expect(await expectCheck('answered_by', 'refunds', adapted)).toEqual({
    pass: true,
    reason: 'the last reply is by `refunds`',
  })
  expect(await expectCheck('answered_by', 'triage', transcriptOf({ agent: 'refunds' }))).toEqual({
    pass: false,
    reason: 'expected a reply by `triage`; the last reply is by `refunds`',
  })
})

test('`answered_by` reads the writer of the last reply', async () => {
  const messages = [
    { role: 'assistant' as const, content: 'routing', agent: 'triage' },
    { role: 'assistant' as const, content: 'done', agent: 'billing' },
  ]
  expect((await expectCheck('answered_by', ['billing', 'refunds'], transcriptOf({ messages }))).pass).toBe(
    true,
  )
})
