import { describe, expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

describe('tool', () => {
  test('passes when the agent called the tool', async () => {
    expect(await expectCheck('tool', 'refund', transcriptOf({ calls: ['lookup_user', 'refund'] }))).toEqual({
      pass: true,
      reason: 'agent called `refund`',
    })
  })

  test('names the tools the agent called instead', async () => {
    const verdict = await expectCheck(
      'tool',
      'cancel_subscription',
      transcriptOf({ calls: ['lookup_user', 'refund'] }),
    )
    expect(verdict).toEqual({
      pass: false,
      reason: 'expected tool `cancel_subscription`, agent called `lookup_user`, `refund`',
    })
  })

  test('says when the agent called no tools', async () => {
    expect((await expectCheck('tool', 'refund', transcriptOf())).reason).toBe(
      'expected tool `refund`, agent called no tools',
    )
  })
})

describe('tools', () => {
  test('passes when every tool was called, in any order', async () => {
    const verdict = await expectCheck(
      'tools',
      ['refund', 'lookup_user'],
      transcriptOf({ calls: ['lookup_user', 'refund'] }),
    )
    expect(verdict).toEqual({ pass: true, reason: 'agent called `refund`, `lookup_user`' })
  })

  test('lists the missing tools with a partial score', async () => {
    const verdict = await expectCheck(
      'tools',
      ['lookup_user', 'refund'],
      transcriptOf({ calls: ['lookup_user', 'email'] }),
    )
    expect(verdict).toEqual({
      pass: false,
      score: 0.5,
      reason: 'expected tools `lookup_user`, `refund`, missing `refund`; agent called `lookup_user`, `email`',
    })
  })

  test('`[]` expects no tool call at all', async () => {
    expect(await expectCheck('tools', [], transcriptOf())).toEqual({
      pass: true,
      reason: 'agent called no tools, as expected',
    })
    expect(await expectCheck('tools', [], transcriptOf({ calls: ['refund', 'refund'] }))).toEqual({
      pass: false,
      reason: 'expected no tool calls, agent called `refund`',
    })
  })
})

describe('tool_args', () => {
  const transcript = transcriptOf({
    calls: [
      ['lookup_user', { id: 'u-1' }],
      ['refund', { order: { id: 7, items: [1, 2] }, amount: 10, currency: 'EUR' }],
    ],
  })

  test('passes when some call includes the expected arguments (deep subset)', async () => {
    const verdict = await expectCheck('tool_args', { refund: { order: { id: 7 }, amount: 10 } }, transcript)
    expect(verdict).toEqual({ pass: true, reason: 'arguments of `refund` include the expected values' })
  })

  test('points at the first argument that differs', async () => {
    const verdict = await expectCheck('tool_args', { refund: { order: { id: 8 } } }, transcript)
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toBe(
      'expected `refund` args to include {"order":{"id":8}}, got {"order":{"id":7,"items":[1,2]},"amount":10,"currency":"EUR"} (`order.id` is 7)',
    )
  })

  test('says when the tool was never called', async () => {
    const verdict = await expectCheck('tool_args', { cancel: { id: 'u-1' } }, transcript)
    expect(verdict).toEqual({
      pass: false,
      reason: 'expected a call to `cancel`, agent called `lookup_user`, `refund`',
    })
  })

  test('compares arrays element by element', async () => {
    expect((await expectCheck('tool_args', { refund: { order: { items: [1] } } }, transcript)).pass).toBe(
      false,
    )
    expect((await expectCheck('tool_args', { refund: { order: { items: [1, 2] } } }, transcript)).pass).toBe(
      true,
    )
  })
})
