import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, jsonLinesLogger, ProviderError, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `22C in ${city}`,
})

describe('jsonLinesLogger', () => {
  test('writes one parseable JSON object per event, each ending in a newline', async () => {
    const lines: string[] = []
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'get_weather', args: { city: 'Paris' }, id: 'c1' },
          { name: 'get_wether', args: {}, id: 'c2' },
        ],
        usage: { inputTokens: 10, outputTokens: 4 },
      },
      { text: 'It is 22C.', usage: { inputTokens: 20, outputTokens: 3 } },
    ])
    const agent = new Agent({
      model: provider,
      tools: [getWeather],
      parallelTools: false,
      observers: [jsonLinesLogger({ write: (line) => void lines.push(line) })],
    })

    const result = await agent.run('Weather?')

    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true)
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.map((record) => record.event)).toEqual([
      'run_start',
      'llm_start',
      'llm_end',
      'tool_start',
      'tool_end',
      'tool_error',
      'llm_start',
      'llm_end',
      'run_end',
    ])
    expect(records.every((record) => record.runId === result.runId)).toBe(true)
    expect(records.every((record) => !Number.isNaN(Date.parse(String(record.time))))).toBe(true)
    expect(records[1]).toMatchObject({ iteration: 1, providerId: 'scripted', messages: 1 })
    expect(records[2]).toMatchObject({ model: 'scripted', toolCalls: 2, cached: false })
    expect(records[3]).toMatchObject({ callId: 'c1', name: 'get_weather', args: { city: 'Paris' } })
    expect(records[5]).toMatchObject({ callId: 'c2', name: 'get_wether' })
    expect(records[8]).toMatchObject({
      stopReason: 'final',
      iterations: 2,
      usage: { inputTokens: 30, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: null,
    })
  })

  test('logs retries and policy decisions', async () => {
    const lines: string[] = []
    const provider = new ScriptedProvider([
      {
        error: new ProviderError('overloaded', { providerId: 'scripted', retryable: true, retryAfterMs: 1 }),
      },
      { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }] },
      'Done.',
    ])
    const agent = new Agent({
      model: provider,
      tools: [getWeather],
      policy: { deny: ['get_*'] },
      observers: [jsonLinesLogger({ write: (line) => void lines.push(line) })],
    })

    await agent.run('Weather?')

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.find((record) => record.event === 'retry')).toMatchObject({
      attempt: 1,
      delayMs: 1,
      error: 'overloaded',
    })
    expect(records.find((record) => record.event === 'policy')).toMatchObject({
      callId: 'c1',
      name: 'get_weather',
      decision: 'deny',
      reason: 'matched deny rule `get_*`',
    })
  })
})
