import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/index.ts'
import { extractJson, parseStructuredOutput } from '../../src/engine/structured.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const weather = z.object({ city: z.string(), temperature: z.number() })

describe('extractJson', () => {
  test('reads a bare JSON value', () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ a: 1 })
    expect(extractJson('[1, 2]')).toEqual([1, 2])
  })

  test('reads JSON from a code fence', () => {
    expect(extractJson('Here you go:\n```json\n{"a": 1}\n```\nAnything else?')).toEqual({ a: 1 })
    expect(extractJson('```\n[true]\n```')).toEqual([true])
  })

  test('reads the first JSON object inside prose', () => {
    expect(extractJson('The answer is {"a": {"b": "}"}} and that is all. {"c": 2}')).toEqual({
      a: { b: '}' },
    })
  })

  test('skips brackets that do not start valid JSON', () => {
    expect(extractJson('Options [a] or {b}: {"pick": "a"}')).toEqual({ pick: 'a' })
  })

  test('returns undefined when there is no JSON', () => {
    expect(extractJson('Sunny and 22 degrees.')).toBeUndefined()
    expect(extractJson('')).toBeUndefined()
  })
})

describe('parseStructuredOutput', () => {
  test('returns the validated value', async () => {
    expect(await parseStructuredOutput('{"city": "Paris", "temperature": 22}', weather)).toEqual({
      ok: true,
      value: { city: 'Paris', temperature: 22 },
    })
  })

  test('lists every schema issue with its path', async () => {
    expect(await parseStructuredOutput('{"temperature": "warm"}', weather)).toEqual({
      ok: false,
      error: [
        'The JSON did not match the schema:',
        '- city: expected string, received undefined',
        '- temperature: expected number, received string',
        'Reply again with corrected JSON only.',
      ].join('\n'),
    })
  })

  test('says when the reply holds no JSON at all', async () => {
    expect(await parseStructuredOutput('It is sunny.', weather)).toEqual({
      ok: false,
      error: 'The reply contained no JSON value. Reply with only a JSON object matching the schema.',
    })
  })
})

describe('structured output in a run', () => {
  test('parses a reply wrapped in a code fence and types result.parsed', async () => {
    const provider = new ScriptedProvider(['Sure!\n```json\n{"city": "Paris", "temperature": 22}\n```'])
    const agent = new Agent({ model: provider, output: weather })

    const result = await agent.run('Weather in Paris as JSON')

    expect(result.stopReason).toBe('final')
    expect(result.parsed).toEqual({ city: 'Paris', temperature: 22 })
    expectTypeOf(result.parsed).toEqualTypeOf<{ city: string; temperature: number } | undefined>()
  })

  test('parses JSON surrounded by prose', async () => {
    const provider = new ScriptedProvider(['The result is {"city": "Oslo", "temperature": -3} as asked.'])
    const agent = new Agent({ model: provider, output: weather })

    const result = await agent.run('Weather in Oslo')

    expect(result.parsed).toEqual({ city: 'Oslo', temperature: -3 })
  })

  test('adds the schema instruction to the system prompt when the provider has no native structured output', async () => {
    const provider = new ScriptedProvider(['{"city": "Paris", "temperature": 22}'])
    const agent = new Agent({ model: provider, output: weather, instructions: 'Be brief.' })

    await agent.run('Weather')

    expect(provider.calls[0]?.system).toBe(
      'Be brief.\n\nReply with only a JSON value that matches this JSON Schema:\n' +
        '{"type":"object","properties":{"city":{"type":"string"},"temperature":{"type":"number"}},"required":["city","temperature"],"additionalProperties":false}',
    )
    expect(provider.calls[0]?.output).toBeUndefined()
  })

  test('asks for native structured output when the provider supports it', async () => {
    const provider = new ScriptedProvider(['{"city": "Paris", "temperature": 22}'], {
      capabilities: { structuredOutput: true },
    })
    const agent = new Agent({ model: provider, output: weather })

    await agent.run('Weather')

    expect(provider.calls[0]?.output).toEqual({
      name: 'output',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, temperature: { type: 'number' } },
        required: ['city', 'temperature'],
        additionalProperties: false,
      },
    })
    expect(provider.calls[0]?.system).toBeUndefined()
  })

  test('sends the validation errors back and retries', async () => {
    const provider = new ScriptedProvider(['{"city": "Paris"}', '{"city": "Paris", "temperature": 22}'])
    const agent = new Agent({ model: provider, output: weather })

    const result = await agent.run('Weather')

    const feedback = [
      'The JSON did not match the schema:',
      '- temperature: expected number, received undefined',
      'Reply again with corrected JSON only.',
    ].join('\n')
    expect(provider.calls[1]?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: '{"city": "Paris"}' },
      { role: 'user', content: feedback },
    ])
    expect(result.trace.filter((step) => step.type === 'structured_retry')).toMatchObject([
      { attempt: 1, error: feedback },
    ])
    expect(result.parsed).toEqual({ city: 'Paris', temperature: 22 })
    expect(result.stopReason).toBe('final')
  })

  test('stops with `invalid_output` once outputRetries are used up', async () => {
    const provider = new ScriptedProvider(['It is sunny.', 'Still sunny.'])
    const agent = new Agent({ model: provider, output: weather, outputRetries: 1 })

    const result = await agent.run('Weather')

    expect(result.stopReason).toBe('invalid_output')
    expect(result.error).toBe(
      'Structured output failed after 1 retries: The reply contained no JSON value. Reply with only a JSON object matching the schema.',
    )
    expect(result.parsed).toBeUndefined()
    expect(result.output).toBe('Still sunny.')
    provider.assertDone()
  })

  test('fails at once with outputRetries 0', async () => {
    const provider = new ScriptedProvider(['nope'])
    const agent = new Agent({ model: provider, output: weather, outputRetries: 0 })

    const result = await agent.run('Weather')

    expect(result.stopReason).toBe('invalid_output')
    expect(provider.calls).toHaveLength(1)
  })
})
