import { describe, expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

describe('json', () => {
  test('passes on valid JSON', async () => {
    expect(await expectCheck('json', true, transcriptOf({ output: '{"a": [1, 2]}' }))).toEqual({
      pass: true,
      reason: 'output is valid JSON',
    })
  })

  test('quotes the parser error and the output', async () => {
    const verdict = await expectCheck('json', true, transcriptOf({ output: "{'a': 1}" }))
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toMatch(/^output is not valid JSON \(.+\): "\{'a': 1\}"$/)
  })
})

describe('parsed', () => {
  test('reads the structured output first', async () => {
    const transcript = transcriptOf({ output: 'not json', parsed: { intent: 'cancel', confidence: 0.9 } })
    expect(await expectCheck('parsed', { intent: 'cancel' }, transcript)).toEqual({
      pass: true,
      reason: 'structured output includes {"intent":"cancel"}',
    })
  })

  test('falls back to the output parsed as JSON and names the differing field', async () => {
    const transcript = transcriptOf({ output: '{"intent":"billing","user":{"id":"u-1"}}' })
    const verdict = await expectCheck('parsed', { intent: 'cancel', user: { id: 'u-1' } }, transcript)
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toBe(
      'expected structured output to include {"intent":"cancel","user":{"id":"u-1"}}; `intent` is "billing"',
    )
  })

  test('fails when there is nothing structured to compare', async () => {
    const verdict = await expectCheck('parsed', { intent: 'cancel' }, transcriptOf({ output: 'plain text' }))
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toMatch(/^no structured output, and the output is not JSON \(.+\)$/)
  })
})
