import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, ProviderError, tool, type Completion, type Provider } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const rateLimited = (retryAfterMs?: number) =>
  new ProviderError('scripted returned 429: rate limited', {
    providerId: 'scripted',
    status: 429,
    retryable: true,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  })

const badRequest = new ProviderError('scripted returned 400: bad request', {
  providerId: 'scripted',
  status: 400,
  retryable: false,
})

/** A provider whose calls never answer: the ScriptedProvider always answers at once. */
function silentProvider(): Provider & { calls: number; signals: AbortSignal[] } {
  const provider = {
    id: 'silent',
    calls: 0,
    signals: [] as AbortSignal[],
    complete(_request: unknown, options: { signal: AbortSignal }): Promise<Completion> {
      provider.calls++
      provider.signals.push(options.signal)
      return new Promise<Completion>(() => undefined)
    },
  }
  return provider
}

describe('retries', () => {
  test('retries a retryable provider error after the delay the server asked for', async () => {
    const provider = new ScriptedProvider([{ error: rateLimited(1) }, 'Hello.'])
    const agent = new Agent({ model: provider, retry: { initialDelayMs: 10_000 } })

    const result = await agent.run('Hi')

    expect(result.stopReason).toBe('final')
    expect(result.output).toBe('Hello.')
    expect(provider.calls).toHaveLength(2)
    expect(result.trace.map((step) => step.type)).toEqual(['retry', 'llm_call'])
    expect(result.trace[0]).toMatchObject({
      type: 'retry',
      iteration: 1,
      providerId: 'scripted',
      attempt: 1,
      delayMs: 1,
      error: 'scripted returned 429: rate limited',
    })
    expect(result.iterations).toBe(1)
  })

  test('caps a server-requested delay at maxDelayMs', async () => {
    const provider = new ScriptedProvider([{ error: rateLimited(60_000) }, 'Hello.'])
    const agent = new Agent({ model: provider, retry: { maxDelayMs: 2 } })

    const result = await agent.run('Hi')

    expect(result.trace[0]).toMatchObject({ type: 'retry', delayMs: 2 })
  })

  test('backs off exponentially with jitter when the server gives no delay', async () => {
    const provider = new ScriptedProvider([{ error: rateLimited() }, { error: rateLimited() }, 'Hello.'])
    const agent = new Agent({ model: provider, retry: { initialDelayMs: 2, maxRetries: 2 } })

    const result = await agent.run('Hi')

    const delays = result.trace.flatMap((step) => (step.type === 'retry' ? [step.delayMs] : []))
    expect(delays).toHaveLength(2)
    expect(delays[0]).toBeGreaterThanOrEqual(1.5)
    expect(delays[0]).toBeLessThanOrEqual(2)
    expect(delays[1]).toBeGreaterThanOrEqual(3)
    expect(delays[1]).toBeLessThanOrEqual(4)
  })

  test('does not retry an error that is not retryable', async () => {
    const provider = new ScriptedProvider([{ error: badRequest }])
    const agent = new Agent({ model: provider, retry: { initialDelayMs: 1 } })

    const result = await agent.run('Hi')

    expect(result.stopReason).toBe('error')
    expect(result.error).toBe('scripted returned 400: bad request')
    expect(provider.calls).toHaveLength(1)
    expect(result.trace.map((step) => step.type)).toEqual(['error'])
  })

  test('does not retry a plain error from a provider', async () => {
    const provider = new ScriptedProvider([{ error: new Error('socket closed') }])
    const agent = new Agent({ model: provider, retry: { initialDelayMs: 1 } })

    const result = await agent.run('Hi')

    expect(result.error).toBe('socket closed')
    expect(provider.calls).toHaveLength(1)
  })

  test('stops with error once the retries are used up, each retry a trace step', async () => {
    const provider = new ScriptedProvider([
      { error: rateLimited(1) },
      { error: rateLimited(1) },
      { error: rateLimited(1) },
    ])
    const agent = new Agent({ model: provider, retry: { maxRetries: 2 } })

    const result = await agent.run('Hi')

    expect(result.stopReason).toBe('error')
    expect(result.error).toBe('scripted returned 429: rate limited')
    expect(result.trace.map((step) => step.type)).toEqual(['retry', 'retry', 'error'])
    expect(result.trace.flatMap((step) => (step.type === 'retry' ? [step.attempt] : []))).toEqual([1, 2])
    provider.assertDone()
  })

  test('tells observers about every retry', async () => {
    const retries: { attempt: number; delayMs: number; message: string }[] = []
    const provider = new ScriptedProvider([{ error: rateLimited(1) }, 'Hello.'])
    const agent = new Agent({
      model: provider,
      observers: [
        {
          onRetry: ({ attempt, delayMs, error }) => {
            retries.push({ attempt, delayMs, message: error.message })
          },
        },
      ],
    })

    await agent.run('Hi')

    expect(retries).toEqual([{ attempt: 1, delayMs: 1, message: 'scripted returned 429: rate limited' }])
  })
})

describe('request timeout', () => {
  test('stops with error when the model does not answer within requestTimeoutMs', async () => {
    const provider = silentProvider()
    const agent = new Agent({ model: provider, requestTimeoutMs: 20, retry: { maxRetries: 0 } })

    const result = await agent.run('Hi')

    expect(result.stopReason).toBe('error')
    expect(result.error).toBe('Model call to `silent` timed out after 20 ms.')
    expect(provider.signals[0]?.aborted).toBe(true)
  })

  test('retries a timed-out call', async () => {
    const provider = silentProvider()
    const agent = new Agent({
      model: provider,
      requestTimeoutMs: 10,
      retry: { maxRetries: 1, initialDelayMs: 1 },
    })

    const result = await agent.run('Hi')

    expect(provider.calls).toBe(2)
    expect(result.trace.map((step) => step.type)).toEqual(['retry', 'error'])
  })
})

describe('aborting', () => {
  test('does not call the model when the signal is already aborted', async () => {
    const provider = new ScriptedProvider([])
    const agent = new Agent({ model: provider })

    const result = await agent.run('Hi', { signal: AbortSignal.abort() })

    expect(result.stopReason).toBe('aborted')
    expect(result.error).toBe('The run was aborted.')
    expect(provider.calls).toHaveLength(0)
  })

  test('stops promptly while the model call hangs', async () => {
    const provider = silentProvider()
    const controller = new AbortController()
    const agent = new Agent({
      model: provider,
      observers: [
        {
          onLlmStart: () =>
            void setTimeout(() => {
              controller.abort()
            }, 1),
        },
      ],
    })

    const result = await agent.run('Hi', { signal: controller.signal })

    expect(result.stopReason).toBe('aborted')
    expect(provider.signals[0]?.aborted).toBe(true)
  }, 1000)

  test('stops promptly while a tool hangs, even one that ignores its signal', async () => {
    const controller = new AbortController()
    const hang = tool({
      name: 'hang',
      description: 'Never finishes',
      parameters: z.object({}),
      execute: () => {
        setTimeout(() => {
          controller.abort()
        }, 1)
        return new Promise<never>(() => undefined)
      },
    })
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'hang', args: {} }] }])
    const agent = new Agent({ model: provider, tools: [hang] })

    const result = await agent.run('Go', { signal: controller.signal })

    expect(result.stopReason).toBe('aborted')
    expect(result.error).toBe('The run was aborted.')
    expect(result.iterations).toBe(1)
    provider.assertDone()
  }, 1000)

  test('does not start the next tool once the run is aborted', async () => {
    const controller = new AbortController()
    let started = 0
    const hang = tool({
      name: 'hang',
      description: 'Never finishes',
      parameters: z.object({}),
      execute: () => {
        started++
        setTimeout(() => {
          controller.abort()
        }, 1)
        return new Promise<never>(() => undefined)
      },
    })
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'hang', id: 'c1' },
          { name: 'hang', id: 'c2' },
        ],
      },
    ])
    const agent = new Agent({ model: provider, tools: [hang], parallelTools: false })

    const result = await agent.run('Go', { signal: controller.signal })

    expect(result.stopReason).toBe('aborted')
    expect(started).toBe(1)
    expect(result.toolCalls.map((record) => record.error)).toEqual([
      'Tool `hang` failed: This operation was aborted',
      'Tool `hang` was not run: the run was aborted.',
    ])
  }, 1000)

  test('stops promptly while confirm is pending', async () => {
    const controller = new AbortController()
    let ran = false
    const send = tool({
      name: 'send',
      description: 'Sends',
      parameters: z.object({}),
      execute: () => {
        ran = true
        return 'sent'
      },
    })
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'send' }] }])
    const agent = new Agent({
      model: provider,
      tools: [send],
      policy: { review: ['send'] },
      confirm: () => {
        setTimeout(() => {
          controller.abort()
        }, 1)
        return new Promise<boolean>(() => undefined)
      },
    })

    const result = await agent.run('Go', { signal: controller.signal })

    expect(result.stopReason).toBe('aborted')
    expect(ran).toBe(false)
    expect(result.trace.find((step) => step.type === 'policy')).toMatchObject({
      decision: 'deny',
      reason: 'matched review rule `send`; the run was aborted while waiting for confirm',
    })
  }, 1000)

  test('stops promptly while waiting to retry', async () => {
    const controller = new AbortController()
    const provider = new ScriptedProvider([{ error: rateLimited(60_000) }])
    const agent = new Agent({
      model: provider,
      retry: { maxDelayMs: 60_000 },
      observers: [
        {
          onRetry: () =>
            void setTimeout(() => {
              controller.abort()
            }, 1),
        },
      ],
    })

    const result = await agent.run('Hi', { signal: controller.signal })

    expect(result.stopReason).toBe('aborted')
  }, 1000)

  test('aborts the tool signal when the run is aborted', async () => {
    const controller = new AbortController()
    const signals: AbortSignal[] = []
    const hang = tool({
      name: 'hang',
      description: 'Waits for its signal',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        signals.push(ctx.signal)
        controller.abort()
        return new Promise<never>(() => undefined)
      },
    })
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'hang', args: {} }] }])
    const agent = new Agent({ model: provider, tools: [hang] })

    await agent.run('Go', { signal: controller.signal })

    expect(signals[0]?.aborted).toBe(true)
  }, 1000)
})
