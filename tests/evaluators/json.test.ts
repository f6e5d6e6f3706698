import { describe, expect, test } from 'vitest'
import { expectCheck, transcriptOf } from './helpers.ts'

describe('json', () => {
  test('passes on valid JSON', async () => {
    expect(await expectCheck('json', true, transcriptOf({ output: '{"a": [1, 2]}' }))).toEqual({
      pass: true,
      reason: 'output holds JSON: {"a":[1,2]}',
    })
  })

  test('finds JSON in a code fence or in prose, as the engine does for structured output', async () => {
    const fenced = 'Here you go:\n```json\n{"status": "ok"}\n```\nAnything else?'
    expect(await expectCheck('json', true, transcriptOf({ output: fenced }))).toMatchObject({
      pass: true,
      reason: 'output holds JSON: {"status":"ok"}',
    })
    const prose = 'The order is {"id": "o-7", "items": [1, 2]} and it shipped.'
    expect(await expectCheck('json', true, transcriptOf({ output: prose }))).toMatchObject({ pass: true })
  })

  test('says no JSON was found and quotes the output', async () => {
    const verdict = await expectCheck('json', true, transcriptOf({ output: "{'a': 1}" }))
    expect(verdict).toEqual({
      pass: false,
      reason: `the output holds no JSON value (bare, in a code fence, or in prose): "{'a': 1}"`,
    })
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

  test('compares the JSON a function, HTTP or command target wrote in a code fence', async () => {
    const transcript = transcriptOf({ output: 'Sure.\n```\n{"intent": "cancel", "user": "u-1"}\n```' })
    expect(await expectCheck('parsed', { intent: 'cancel' }, transcript)).toMatchObject({ pass: true })
  })

  test('fails when there is nothing structured to compare', async () => {
    const verdict = await expectCheck('parsed', { intent: 'cancel' }, transcriptOf({ output: 'plain text' }))
    expect(verdict).toEqual({
      pass: false,
      reason: 'no structured output, and the output holds no JSON value (bare, in a code fence, or in prose)',
    })
  })
})
