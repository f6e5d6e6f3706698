import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import { Agent, ModelRetry, tool, type RunContext } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const order = z.object({ sku: z.string(), quantity: z.number() })

describe('output schemas with async refinements', () => {
  test('validates an async zod refine instead of failing on a Promise', async () => {
    const known = new Set(['A-1'])
    const checked = order.refine(async (value) => {
      await Promise.resolve()
      return known.has(value.sku)
    }, 'unknown sku')
    const provider = new ScriptedProvider(['{"sku": "B-9", "quantity": 1}', '{"sku": "A-1", "quantity": 2}'])
    const agent = new Agent({ model: provider, output: checked })

    const result = await agent.run('Order')

    expect(result.stopReason).toBe('final')
    expect(result.parsed).toEqual({ sku: 'A-1', quantity: 2 })
    expect(provider.calls[1]?.messages.at(-1)?.content).toContain('- (root): unknown sku')
  })
})

describe('outputValidators', () => {
  test('sees the parsed output and the run deps, and ModelRetry sends its message back', async () => {
    const seen: unknown[] = []
    const provider = new ScriptedProvider(['{"sku": "A-1", "quantity": 50}', '{"sku": "A-1", "quantity": 5}'])
    const agent = new Agent({
      model: provider,
      output: order,
      deps: { stock: 0 },
      outputValidators: [
        async (output, ctx) => {
          seen.push({ output, deps: ctx.deps, iteration: ctx.iteration })
          await Promise.resolve()
          if (output.quantity > ctx.deps.stock) {
            throw new ModelRetry(`Only ${ctx.deps.stock} in stock; order at most that many.`)
          }
        },
      ],
    })

    const result = await agent.run('Order', { deps: { stock: 10 } })

    expect(result.stopReason).toBe('final')
    expect(result.parsed).toEqual({ sku: 'A-1', quantity: 5 })
    expect(seen).toEqual([
      { output: { sku: 'A-1', quantity: 50 }, deps: { stock: 10 }, iteration: 1 },
      { output: { sku: 'A-1', quantity: 5 }, deps: { stock: 10 }, iteration: 2 },
    ])
    expect(provider.calls[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Only 10 in stock; order at most that many.',
    })
    expect(result.trace.filter((step) => step.type === 'structured_retry')).toMatchObject([
      { attempt: 1, error: 'Only 10 in stock; order at most that many.' },
    ])
  })

  test('gets the reply text when the agent has no output schema, and stops once outputRetries are used', async () => {
    const provider = new ScriptedProvider(['Hi', 'Hello'])
    const agent = new Agent({
      model: provider,
      outputRetries: 1,
      outputValidators: [
        (text) => {
          expectTypeOf(text).toEqualTypeOf<string>()
          if (!text.endsWith('.')) throw new ModelRetry('End the sentence with a period.')
        },
      ],
    })

    const result = await agent.run('Greet')

    expect(result.stopReason).toBe('invalid_output')
    expect(result.error).toBe('Output validation failed after 1 retries: End the sentence with a period.')
    expect(result.output).toBe('Hello')
    provider.assertDone()
  })

  test('runs validators in order and ends the run with `error` when one throws something else', async () => {
    const calls: string[] = []
    const agent = new Agent({
      model: new ScriptedProvider(['Fine.']),
      outputValidators: [
        () => {
          calls.push('first')
          throw new Error('database unreachable')
        },
        () => {
          calls.push('second')
        },
      ],
    })

    const result = await agent.run('Go')

    expect(calls).toEqual(['first'])
    expect(result.stopReason).toBe('error')
    expect(result.error).toBe('An output validator failed: database unreachable')
  })

  test('types the context deps from the agent', () => {
    const validator = (_output: string, ctx: RunContext<{ stock: number }>) => {
      expectTypeOf(ctx.deps.stock).toEqualTypeOf<number>()
    }
    expect(
      () => new Agent({ model: 'local', deps: { stock: 1 }, outputValidators: [validator] }),
    ).not.toThrow()
  })
})

describe('z.string() as the output type', () => {
  test('accepts a plain-text reply and asks for no JSON', async () => {
    const provider = new ScriptedProvider(['It is sunny in Paris.'], {
      capabilities: { structuredOutput: true },
    })
    const agent = new Agent({ model: provider, output: z.string(), instructions: 'Be brief.' })

    const result = await agent.run('Weather')

    expect(result.parsed).toBe('It is sunny in Paris.')
    expect(provider.calls[0]?.system).toBe('Be brief.')
    expect(provider.calls[0]?.output).toBeUndefined()
  })

  test('sends the string checks back when the reply fails them', async () => {
    const provider = new ScriptedProvider(['Sunny', 'Sunny and 22 degrees in Paris.'])
    const agent = new Agent({ model: provider, output: z.string().min(10) })

    const result = await agent.run('Weather')

    expect(result.parsed).toBe('Sunny and 22 degrees in Paris.')
    expect(provider.calls[1]?.messages.at(-1)?.content).toBe(
      [
        'The reply did not match the expected output:',
        '- (root): Too small: expected string to have >=10 characters',
        'Reply again with a corrected answer.',
      ].join('\n'),
    )
  })
})

describe('ModelRetry from a tool', () => {
  test('sends its message to the model as the tool result and counts against the tool’s retries', async () => {
    let attempts = 0
    const lookup = tool({
      name: 'lookup',
      description: 'Finds an order',
      parameters: z.object({ id: z.string() }),
      maxRetries: 1,
      execute: ({ id }) => {
        attempts++
        throw new ModelRetry(`No order \`${id}\`; ids look like ORD-123.`)
      },
    })
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'lookup', args: { id: '123' }, id: 'c1' }] },
      { toolCalls: [{ name: 'lookup', args: { id: 'ORD123' }, id: 'c2' }] },
    ])
    const agent = new Agent({ model: provider, tools: [lookup] })

    const result = await agent.run('Find order 123')

    expect(attempts).toBe(2)
    expect(provider.calls[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      name: 'lookup',
      content: 'No order `123`; ids look like ORD-123.',
      isError: true,
    })
    expect(result.stopReason).toBe('tool_failures')
    expect(result.error).toBe(
      'Tool `lookup` failed 2 times in a row (retry budget 1); last error: No order `ORD123`; ids look like ORD-123.',
    )
  })
})
