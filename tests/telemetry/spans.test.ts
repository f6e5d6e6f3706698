import { context, SpanStatusCode, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `22C in ${city}`,
})
const getTime = tool({
  name: 'get_time',
  description: 'Local time in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => {
    if (city === 'Atlantis') throw new Error('no such city')
    return `12:00 in ${city}`
  },
})

function twoToolScript(timeCity = 'Paris'): ScriptedProvider {
  return new ScriptedProvider(
    [
      {
        toolCalls: [
          { id: 'call-weather', name: 'get_weather', args: { city: 'Paris' } },
          { id: 'call-time', name: 'get_time', args: { city: timeCity } },
        ],
        usage: { inputTokens: 30, outputTokens: 7 },
      },
      { text: 'Sunny and noon.', usage: { inputTokens: 50, outputTokens: 4 } },
    ],
    { id: 'openai:gpt-4.1-mini' },
  )
}

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((candidate) => candidate.name === name)
  if (!span) throw new Error(`no span \`${name}\` among ${spans.map((s) => s.name).join(', ')}`)
  return span
}

describe('with a registered tracer provider', () => {
  let exporter: InMemorySpanExporter
  let provider: TracerProvider

  beforeEach(() => {
    exporter = new InMemorySpanExporter()
    provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
    trace.setGlobalTracerProvider(provider)
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  })
  afterEach(async () => {
    await provider.shutdown()
    trace.disable()
    context.disable()
  })

  test('a two-tool run is an invoke_agent span over two chat spans and two execute_tool spans', async () => {
    const agent = new Agent({ name: 'weather', model: twoToolScript(), tools: [getWeather, getTime] })

    const result = await trace.getTracer('test').startActiveSpan('case', async (caseSpan) => {
      const ran = await agent.run('Weather and time in Paris?')
      caseSpan.end()
      return ran
    })

    expect(result.stopReason).toBe('final')
    const spans = exporter.getFinishedSpans()
    expect(spans.map((span) => span.name).sort()).toEqual([
      'case',
      'chat gpt-4.1-mini',
      'chat gpt-4.1-mini',
      'execute_tool get_time',
      'execute_tool get_weather',
      'invoke_agent weather',
    ])
    const caseSpan = named(spans, 'case')
    const run = named(spans, 'invoke_agent weather')
    expect(run.parentSpanContext?.spanId).toBe(caseSpan.spanContext().spanId)
    expect(run.spanContext().traceId).toBe(caseSpan.spanContext().traceId)
    for (const span of spans.filter((candidate) => candidate !== run && candidate !== caseSpan)) {
      expect(span.parentSpanContext?.spanId).toBe(run.spanContext().spanId)
    }
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'weather',
      'gen_ai.usage.input_tokens': 80,
      'gen_ai.usage.output_tokens': 11,
      'evals.stop_reason': 'final',
    })
    const chats = spans.filter((span) => span.name.startsWith('chat '))
    expect(chats.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4.1-mini',
        'gen_ai.usage.input_tokens': 30,
        'gen_ai.usage.output_tokens': 7,
      }),
      expect.objectContaining({ 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 4 }),
    ])
    expect(named(spans, 'execute_tool get_weather').attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call-weather',
    })
    expect(named(spans, 'execute_tool get_time').status.code).toBe(SpanStatusCode.UNSET)
  })

  test('a failing tool call and an unknown tool are spans with error status', async () => {
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'c1', name: 'get_time', args: { city: 'Atlantis' } },
          { id: 'c2', name: 'get_wether', args: {} },
        ],
      },
      'sorry',
    ])
    const agent = new Agent({ model: provider, tools: [getWeather, getTime] })

    await agent.run('time in Atlantis?')

    const spans = exporter.getFinishedSpans()
    expect(named(spans, 'execute_tool get_time').status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Tool `get_time` failed: no such city',
    })
    expect(named(spans, 'execute_tool get_wether')).toMatchObject({
      status: {
        code: SpanStatusCode.ERROR,
        message: expect.stringMatching(/^Unknown tool `get_wether`/) as unknown,
      },
      attributes: { 'gen_ai.tool.call.id': 'c2', 'error.type': 'tool_error' },
    })
  })

  test('a model call that fails leaves the chat and run spans with error status', async () => {
    const agent = new Agent({
      model: new ScriptedProvider([{ error: new Error('the API is down') }]),
      retry: { maxRetries: 0 },
    })

    const result = await agent.run('hi')

    expect(result.stopReason).toBe('error')
    const spans = exporter.getFinishedSpans()
    expect(named(spans, 'chat scripted').status.code).toBe(SpanStatusCode.ERROR)
    expect(named(spans, 'invoke_agent agent')).toMatchObject({
      status: { code: SpanStatusCode.ERROR, message: 'the API is down' },
      attributes: { 'evals.stop_reason': 'error', 'error.type': 'error' },
    })
  })
})

test('without a registered tracer provider a run makes no spans', async () => {
  const exporter = new InMemorySpanExporter()
  // made but never registered: the engine must not find it
  const unregistered = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
  const agent = new Agent({ model: twoToolScript(), tools: [getWeather, getTime] })

  const result = await agent.run('Weather and time in Paris?')

  expect(result.stopReason).toBe('final')
  await unregistered.forceFlush()
  expect(exporter.getFinishedSpans()).toEqual([])
})
