import { describe, expect, test } from 'vitest'
import { partsOfSpans, withTraceParts } from '../../src/traces/normalize.ts'
import { transcriptOf } from '../evaluators/helpers.ts'
import { gpt41MiniCost } from './helpers.ts'
import { spanOf } from './spans.ts'

describe('the span normalizer, one table per convention', () => {
  test('OpenTelemetry GenAI semconv: chat spans are model calls with usage and cost, execute_tool spans tool calls', async () => {
    const parts = await partsOfSpans([
      spanOf('invoke_agent support', { 'gen_ai.operation.name': 'invoke_agent' }),
      spanOf('chat gpt-4.1-mini', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4.1',
        'gen_ai.response.model': 'gpt-4.1-mini',
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 20,
        'gen_ai.usage.cache_read.input_tokens': 40,
        'gen_ai.response.finish_reasons': ['tool_calls'],
      }),
      spanOf('execute_tool lookup_order', {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup_order',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.tool.call.arguments': '{"id":"A1"}',
      }),
      spanOf(
        'execute_tool refund',
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'refund',
          'gen_ai.tool.call.id': 'call_2',
        },
        { status: 'error', error: 'refunds are closed' },
      ),
      spanOf('chat gpt-4.1-mini', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.response.model': 'gpt-4.1-mini',
        'gen_ai.usage.prompt_tokens': 200,
        'gen_ai.usage.completion_tokens': 10,
      }),
    ])

    expect(parts.toolCalls).toEqual([
      { id: 'call_1', name: 'lookup_order', args: { id: 'A1' }, durationMs: 5 },
      { id: 'call_2', name: 'refund', args: {}, error: 'refunds are closed', durationMs: 5 },
    ])
    expect(parts.iterations).toBe(2)
    expect(parts.usage).toEqual({
      inputTokens: 300,
      outputTokens: 30,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
    })
    expect(parts.costUsd).toBeCloseTo(gpt41MiniCost({ input: 300, cached: 40, output: 30 }), 12)
    const models = parts.trace.filter((step) => step.type === 'llm_call')
    expect(models.map((step) => [step.model, step.finishReason, step.toolCalls])).toEqual([
      ['gpt-4.1-mini', 'tool_calls', 2],
      ['gpt-4.1-mini', 'other', 0],
    ])
  })

  test('OpenInference: LLM spans are model calls, TOOL spans tool calls with input.value and output.value', async () => {
    const parts = await partsOfSpans([
      spanOf('Agent', { 'openinference.span.kind': 'AGENT' }),
      spanOf('ChatOpenAI', {
        'openinference.span.kind': 'LLM',
        'llm.provider': 'openai',
        'llm.model_name': 'gpt-4.1-mini',
        'llm.token_count.prompt': 100,
        'llm.token_count.completion': 20,
        'llm.token_count.prompt_details.cache_read': 40,
      }),
      spanOf('lookup_order', {
        'openinference.span.kind': 'TOOL',
        'tool.name': 'lookup_order',
        'input.value': '{"id":"A1"}',
        'output.value': '{"status":"shipped"}',
      }),
    ])

    expect(parts.toolCalls).toMatchObject([
      { name: 'lookup_order', args: { id: 'A1' }, result: { status: 'shipped' } },
    ])
    expect(parts.usage).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
    })
    expect(parts.costUsd).toBeCloseTo(gpt41MiniCost({ input: 100, cached: 40, output: 20 }), 12)
  })

  test('what spans do not say stays unknown: no usage, an unpriced model, spans of no convention', async () => {
    const noUsage = await partsOfSpans([
      spanOf('chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4.1-mini' }),
    ])
    expect([noUsage.usage, noUsage.costUsd, noUsage.iterations, noUsage.toolCalls]).toEqual([
      null,
      null,
      1,
      [],
    ])

    const unpriced = await partsOfSpans([
      spanOf('chat', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'house-model-7',
        'gen_ai.usage.input_tokens': 1,
        'gen_ai.usage.output_tokens': 1,
      }),
    ])
    expect(unpriced.usage).not.toBeNull()
    expect(unpriced.costUsd).toBeNull()

    const plain = await partsOfSpans([spanOf('GET /orders', { 'http.request.method': 'GET' })])
    expect([plain.toolCalls, plain.usage, plain.costUsd, plain.iterations]).toEqual([null, null, null, null])
  })

  test("the target's own fields win; spans fill only the unknown ones", async () => {
    const parts = await partsOfSpans([
      spanOf('execute_tool search', {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search',
      }),
      spanOf('chat', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4.1-mini',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 1,
      }),
    ])
    const own = transcriptOf({ calls: ['lookup'], iterations: 3, source: 'engine' })
    const filled = withTraceParts(own, parts)
    expect(filled.toolCalls?.map((call) => call.name)).toEqual(['lookup'])
    expect(filled.iterations).toBe(3)
    expect(filled.source).toBe('engine')

    const textOnly = withTraceParts(
      transcriptOf({ toolCalls: null, usage: null, costUsd: null, iterations: null }),
      parts,
    )
    expect(textOnly.toolCalls?.map((call) => call.name)).toEqual(['search'])
    expect(textOnly.iterations).toBe(1)
    expect(textOnly.source).toBe('traces')
  })
})
