import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, ConfigError, ModelRetry, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const verdict = z.object({ intent: z.enum(['billing', 'cancel']), confidence: z.number() })

const submit = tool({
  name: 'submit',
  description: 'Submits the classification',
  parameters: z.object({ intent: z.string(), confidence: z.number() }),
  terminal: true,
  execute: (args) => args,
})

const callSubmit = (intent: string) => ({
  toolCalls: [{ name: 'submit', args: { intent, confidence: 0.9 } }],
})

describe('a terminal tool’s result is the structured output', () => {
  test('a result that matches `output` becomes `parsed`', async () => {
    const provider = new ScriptedProvider([callSubmit('cancel')])
    const agent = new Agent({ model: provider, tools: [submit], output: verdict })

    const result = await agent.run('Cancel my plan')

    expect(result.stopReason).toBe('terminal_tool')
    expect(result.parsed).toEqual({ intent: 'cancel', confidence: 0.9 })
    expect(result.output).toBe('{"intent":"cancel","confidence":0.9}')
  })

  test('a result that does not match is sent back with the issues, and the corrected call ends the run', async () => {
    const provider = new ScriptedProvider([callSubmit('refund'), callSubmit('billing')])
    const agent = new Agent({ model: provider, tools: [submit], output: verdict })

    const result = await agent.run('Why was I charged twice?')

    expect(result.stopReason).toBe('terminal_tool')
    expect(result.parsed).toEqual({ intent: 'billing', confidence: 0.9 })
    expect(provider.calls[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content:
        'The result of `submit` did not match the expected output:\n- intent: Invalid option: expected one of "billing"|"cancel"\nCall it again with corrected arguments.',
    })
    expect(result.trace.filter((step) => step.type === 'structured_retry')).toHaveLength(1)
  })

  test('a result that never matches ends the run with `invalid_output` once the retries are spent', async () => {
    const provider = new ScriptedProvider([callSubmit('refund'), callSubmit('refund')])
    const agent = new Agent({ model: provider, tools: [submit], output: verdict, outputRetries: 1 })

    const result = await agent.run('Hm')

    expect(result.stopReason).toBe('invalid_output')
    expect(result.parsed).toBeUndefined()
    expect(result.error).toMatch(
      /^Structured output failed after 1 retries: The result of `submit` did not match/,
    )
  })

  test('output validators see the terminal result too', async () => {
    const provider = new ScriptedProvider([callSubmit('cancel'), callSubmit('billing')])
    const agent = new Agent({
      model: provider,
      tools: [submit],
      output: verdict,
      outputValidators: [
        (value) => {
          if (value.intent === 'cancel') throw new ModelRetry('Cancellations go to billing first.')
        },
      ],
    })

    const result = await agent.run('Cancel')

    expect(result.parsed).toEqual({ intent: 'billing', confidence: 0.9 })
  })
})

describe('a JSON Schema as `output`', () => {
  const schema = {
    type: 'object',
    properties: { summary: { type: 'string' }, score: { type: 'integer', minimum: 0 } },
    required: ['summary', 'score'],
    additionalProperties: false,
  }

  test('validates the reply against it and sends it to the model as it is', async () => {
    const provider = new ScriptedProvider(['{"summary":"ok","score":-1}', '{"summary":"ok","score":3}'], {
      capabilities: { structuredOutput: true },
    })
    const agent = new Agent({ model: provider, output: schema })

    const result = await agent.run('Summarize')

    expect(result.parsed).toEqual({ summary: 'ok', score: 3 })
    expect(provider.calls[0]?.output?.schema).toMatchObject(schema)
    expect(provider.calls[1]?.messages.at(-1)?.content).toMatch(
      /^The JSON did not match the schema:\n- score: /,
    )
  })

  test('something that is neither a zod schema nor a JSON Schema object is a ConfigError that says what to pass', () => {
    const model = new ScriptedProvider([])
    // @ts-expect-error -- a string is no schema
    expect(() => new Agent({ model, output: 'json' })).toThrow(
      new ConfigError(
        'Agent `agent`: `output` must be a zod schema (e.g. z.object({ … })) or a JSON Schema object, got a string.',
      ),
    )
    expect(() => new Agent({ model, output: { type: 'objekt' } })).toThrow(
      /^Agent `agent`: `output` is not a JSON Schema zod can read: /,
    )
  })
})
