import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool, type Observer } from '../../src/index.ts'
import { ScriptedProvider, type ScriptedReply } from '../../src/testing/index.ts'

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
  execute: ({ city }) => `09:00 in ${city}`,
})

const HOOKS = [
  'onRunStart',
  'onIterationStart',
  'onLlmStart',
  'onLlmEnd',
  'onRetry',
  'onFallback',
  'onToolStart',
  'onToolChunk',
  'onToolEnd',
  'onToolError',
  'onPolicyDecision',
  'onLimit',
  'onIterationEnd',
  'onRunEnd',
] as const satisfies readonly (keyof Observer)[]

/** an observer of every hook; `handle` runs for each event after it is logged */
function recorder(log: string[], handle?: (hook: string) => Promise<void>): Observer {
  return Object.fromEntries(
    HOOKS.map((hook) => [
      hook,
      (event: { iteration?: number; callId?: string }) => {
        log.push([hook, event.iteration ?? event.callId].filter((part) => part !== undefined).join(' '))
        return handle?.(hook)
      },
    ]),
  )
}

/** a script whose model calls are logged as `model call N` */
function twoToolScript(log: string[]): ScriptedProvider {
  const logged = (reply: ScriptedReply): ScriptedReply => {
    return () => {
      log.push(`model call ${log.filter((line) => line.startsWith('model call')).length + 1}`)
      return reply
    }
  }
  return new ScriptedProvider([
    logged({
      toolCalls: [
        { name: 'get_weather', args: { city: 'Paris' }, id: 'c1' },
        { name: 'get_time', args: { city: 'Paris' }, id: 'c2' },
      ],
    }),
    logged('22C and 09:00 in Paris.'),
  ])
}

describe('observer hooks', () => {
  test('come in order over a two-tool run, each iteration between its start and end', async () => {
    const log: string[] = []
    const agent = new Agent({
      model: new ScriptedProvider([
        {
          toolCalls: [
            { name: 'get_weather', args: { city: 'Paris' }, id: 'c1' },
            { name: 'get_time', args: { city: 'Paris' }, id: 'c2' },
          ],
        },
        '22C and 09:00 in Paris.',
      ]),
      tools: [getWeather, getTime],
      parallelTools: false,
      observers: [recorder(log)],
    })

    const result = await agent.run('Weather and time in Paris?')

    expect(result.stopReason).toBe('final')
    expect(log).toEqual([
      'onRunStart',
      'onIterationStart 1',
      'onLlmStart 1',
      'onLlmEnd 1',
      'onToolStart c1',
      'onToolEnd c1',
      'onToolStart c2',
      'onToolEnd c2',
      'onIterationEnd 1',
      'onIterationStart 2',
      'onLlmStart 2',
      'onLlmEnd 2',
      'onIterationEnd 2',
      'onRunEnd',
    ])
  })

  test('with awaitObservers, a slow async observer finishes each hook before the run goes on', async () => {
    const log: string[] = []
    const slow = recorder(log, async (hook) => {
      await sleep(5)
      log.push(`${hook} done`)
    })
    const agent = new Agent({
      model: twoToolScript(log),
      tools: [getWeather, getTime],
      parallelTools: false,
      observers: [slow],
      awaitObservers: true,
    })

    await agent.run('Weather and time in Paris?')

    // every hook's "done" comes right after the hook itself, before the next thing the run does
    for (const [index, line] of log.entries()) {
      if (line.startsWith('on') && !line.endsWith('done')) {
        expect(log[index + 1]).toBe(`${line.split(' ')[0] ?? ''} done`)
      }
    }
    const second = log.indexOf('model call 2')
    expect(log.slice(second - 4, second + 1)).toEqual([
      'onIterationStart 2',
      'onIterationStart done',
      'onLlmStart 2',
      'onLlmStart done',
      'model call 2',
    ])
    expect(log.at(-1)).toBe('onRunEnd done')
  })

  test('are not awaited by default: the run ends while every hook still waits', async () => {
    const log: string[] = []
    let release = (): void => undefined
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const waiting = recorder(log, async (hook) => {
      await gate
      log.push(`${hook} done`)
    })
    const agent = new Agent({
      model: twoToolScript(log),
      tools: [getWeather, getTime],
      parallelTools: false,
      observers: [waiting],
    })

    const result = await agent.run('Weather and time in Paris?')

    expect(result.stopReason).toBe('final')
    expect(log.filter((line) => line.endsWith('done'))).toEqual([])
    expect(log).toContain('model call 2')
    release()
    await sleep(0)
    const hooks = log.filter((line) => line.startsWith('on') && !line.endsWith('done'))
    expect(log.filter((line) => line.endsWith('done'))).toHaveLength(hooks.length)
  })

  test('an awaited observer that rejects or throws is ignored', async () => {
    const log: string[] = []
    const failing: Observer = {
      onIterationStart: () => {
        throw new Error('observer bug')
      },
      onLlmEnd: async () => {
        await sleep(1)
        throw new Error('observer bug')
      },
      onRunEnd: async () => Promise.reject(new Error('observer bug')),
    }
    const agent = new Agent({
      model: twoToolScript(log),
      tools: [getWeather, getTime],
      observers: [failing, recorder(log)],
      awaitObservers: true,
    })

    const result = await agent.run('Weather and time in Paris?')

    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('22C and 09:00 in Paris.')
    expect(log.at(-1)).toBe('onRunEnd')
  })

  test('a limit stop comes after the last iteration ended; a limit before a call opens no iteration', async () => {
    const log: string[] = []
    const oneIteration = new Agent({
      model: twoToolScript(log),
      tools: [getWeather, getTime],
      maxIterations: 1,
      parallelTools: false,
      observers: [recorder(log)],
    })

    const stopped = await oneIteration.run('Weather and time in Paris?')

    expect(stopped.stopReason).toBe('max_iterations')
    expect(log.slice(-4)).toEqual(['onToolEnd c2', 'onIterationEnd 1', 'onLimit', 'onRunEnd'])

    log.length = 0
    const fewTokens = new Agent({
      model: twoToolScript(log),
      tools: [getWeather, getTime],
      limits: { maxTotalTokens: 1 },
      observers: [recorder(log)],
    })

    const spent = await fewTokens.run('Weather and time in Paris?')

    expect(spent.stopReason).toBe('usage_limit')
    expect(log.slice(-4)).toEqual(['onLlmEnd 1', 'onIterationEnd 1', 'onLimit', 'onRunEnd'])

    log.length = 0
    const oneRequest = new Agent({
      model: twoToolScript(log),
      tools: [getWeather, getTime],
      limits: { maxRequests: 1 },
      observers: [recorder(log)],
    })

    const limited = await oneRequest.run('Weather and time in Paris?')

    expect(limited.stopReason).toBe('usage_limit')
    expect(log.filter((line) => line.startsWith('onIteration'))).toEqual([
      'onIterationStart 1',
      'onIterationEnd 1',
    ])
    expect(log.slice(-2)).toEqual(['onLimit', 'onRunEnd'])
  })
})
