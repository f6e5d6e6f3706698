import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool } from '../../src/index.ts'
import { toTranscript } from '../../src/targets/to-transcript.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
  additionalProperties: false,
}

describe('with `schemas`', () => {
  test('passes when every call is valid against its tool’s schema', async () => {
    const transcript = transcriptOf({
      calls: [
        ['get_weather', { city: 'Paris' }],
        ['get_weather', { city: 'Oslo', days: 2 }],
      ],
    })
    expect(await expectCheck('is_valid_tool_call', { get_weather: weatherSchema }, transcript)).toEqual({
      pass: true,
      reason: '2 tool calls with valid arguments',
    })
  })

  test('names each invalid call, its problem, and tools without a schema', async () => {
    const transcript = transcriptOf({
      calls: [
        ['get_weather', { city: 'Paris' }],
        ['get_weather', { days: 0 }],
        ['book_flight', { to: 'Oslo' }],
        ['get_weather', '{"city": '],
      ],
    })
    const verdict = await assertCheck(
      { kind: 'is_valid_tool_call', schemas: { get_weather: weatherSchema } },
      transcript,
    )
    expect(verdict).toEqual({
      pass: false,
      reason:
        "3 invalid tool calls of 4: call 2 `get_weather`: $: must have required property 'city', $.days: must be >= 1; " +
        'call 3 `book_flight`: no schema for this tool (schemas: `get_weather`); ' +
        'call 4 `get_weather`: arguments are not valid JSON: {"city": ',
      details: { problems: expect.any(Array) as unknown },
    })
  })

  test('reads a schema from a file relative to the case file', async () => {
    const order = { id: 'o-1', items: [{ sku: 'A-1', price: 'ten' }] }
    const transcript = transcriptOf({ calls: [['create_order', order]] })
    const verdict = await expectCheck(
      'is_valid_tool_call',
      { create_order: { $ref: './schemas/order.schema.json' } },
      transcript,
    )
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toBe(
      '1 invalid tool call of 1: call 1 `create_order`: $.items[0].price: must be number',
    )
  })

  test('an invalid schema is a ConfigError naming the tool', async () => {
    await expect(
      expectCheck('is_valid_tool_call', { get_weather: { type: 'objekt' } }, transcriptOf()),
    ).rejects.toThrow('is_valid_tool_call: the schema of `get_weather` is not a valid JSON Schema:')
  })
})

describe('without `schemas`', () => {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `22C in ${city}`,
  })

  async function agentTranscript(calls: { name: string; args: unknown }[]) {
    const provider = new ScriptedProvider([
      { toolCalls: calls.map((call, i) => ({ ...call, id: `c${i}` })) },
      'Done.',
    ])
    const result = await new Agent({ model: provider, tools: [getWeather] }).run('Weather?')
    const transcript = toTranscript(result, 'Weather?', 1)
    if (!transcript) throw new Error('no transcript')
    return transcript
  }

  test('counts the checks the agent engine made against each tool’s schema', async () => {
    expect(
      await expectCheck(
        'is_valid_tool_call',
        true,
        await agentTranscript([{ name: 'get_weather', args: { city: 'Paris' } }]),
      ),
    ).toEqual({ pass: true, reason: '1 tool call with valid arguments' })
    const verdict = await expectCheck(
      'is_valid_tool_call',
      true,
      await agentTranscript([
        { name: 'get_weather', args: { town: 'Paris' } },
        { name: 'get_wether', args: { city: 'Paris' } },
      ]),
    )
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toMatch(
      /^2 invalid tool calls of 2: call 1 `get_weather`: Invalid arguments for tool `get_weather`: .*; call 2 `get_wether`: Unknown tool `get_wether`/,
    )
  })

  test('errors, asking for `schemas:`, when the transcript is not from the agent engine', async () => {
    const foreign = transcriptOf({ calls: [['get_weather', { city: 1 }]] })
    await expect(expectCheck('is_valid_tool_call', true, foreign)).rejects.toThrow(
      '`is_valid_tool_call` needs the tool schemas: this transcript comes from `target`, not the built-in agent engine (which checks every call against its tool); give them with `schemas:` (tool name → JSON Schema).',
    )
  })

  test('does not take an `llm_call` trace step for proof that the engine checked the calls', async () => {
    // a foreign transcript that happens to carry an engine-shaped trace: the calls were never checked
    const foreign = transcriptOf({
      calls: [['get_weather', { city: 1 }]],
      trace: [
        {
          type: 'llm_call',
          startedAt: 0,
          durationMs: 1,
          iteration: 1,
          providerId: 'openai',
          model: 'gpt-4.1-mini',
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          finishReason: 'tool_calls',
          toolCalls: 1,
        },
      ],
    })
    await expect(expectCheck('is_valid_tool_call', true, foreign)).rejects.toThrow(/needs the tool schemas/)
  })

  test('errors when the target does not report its tool calls, rather than finding none to check', async () => {
    await expect(expectCheck('is_valid_tool_call', true, transcriptOf({ toolCalls: null }))).rejects.toThrow(
      '`is_valid_tool_call` needs the tool calls, which this target does not report (transcript source `target`)',
    )
  })

  test('passes when there are no tool calls', async () => {
    expect(await expectCheck('is_valid_tool_call', true, transcriptOf())).toEqual({
      pass: true,
      reason: 'no tool calls to check',
    })
  })
})

test('`false` is a case-file error with its location', async () => {
  expect(
    await caseFileErrorOf(['  - id: greet', '    input: hi', '    expect: { is_valid_tool_call: false }']),
  ).toBe('checks.yaml:6:35: cases[0].expect.is_valid_tool_call: expected one of true, received boolean false')
})
