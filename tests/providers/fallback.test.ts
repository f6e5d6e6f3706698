import { describe, expect, test } from 'vitest'
import { ProviderError } from '../../src/errors.ts'
import { fallback, type FallbackEvent } from '../../src/providers/fallback.ts'
import type {
  Completion,
  CompletionEvent,
  CompletionRequest,
  Provider,
} from '../../src/providers/provider.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { startMockLlmServer } from '../../src/testing/index.ts'

type Outcome = 'ok' | 'down' | 'bad-request'

/** A provider that answers or fails as told, counting its calls. */
function fake(id: string, outcomes: Outcome[] = []): Provider & { calls: number; outcomes: Outcome[] } {
  return {
    id,
    calls: 0,
    outcomes,
    async complete(): Promise<Completion> {
      this.calls++
      const outcome = this.outcomes.shift() ?? 'ok'
      if (outcome === 'down')
        throw new ProviderError(`${id} is down`, { providerId: id, status: 503, retryable: true })
      if (outcome === 'bad-request')
        throw new ProviderError(`${id} says no`, { providerId: id, status: 400, retryable: false })
      return {
        message: { text: `from ${id}`, toolCalls: [] },
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        finishReason: 'stop',
        model: id,
      }
    },
  }
}

const request: CompletionRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] }
const call = (provider: Provider): Promise<Completion> =>
  provider.complete(request, { signal: new AbortController().signal })

describe('fallback', () => {
  test('answers from the first provider and names it in providerId', async () => {
    const provider = fallback([fake('a'), fake('b')])
    expect(provider.id).toBe('fallback(a, b)')
    await expect(call(provider)).resolves.toMatchObject({ message: { text: 'from a' }, providerId: 'a' })
  })

  test('moves to the next provider on a retryable error and reports the switch', async () => {
    const events: FallbackEvent[] = []
    const perCall: FallbackEvent[] = []
    const provider = fallback([fake('a', ['down']), fake('b')], { onFallback: (event) => events.push(event) })
    const completion = await provider.complete(request, {
      signal: new AbortController().signal,
      onFallback: (event) => perCall.push(event),
    })
    expect(completion).toMatchObject({ message: { text: 'from b' }, providerId: 'b' })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ from: 'a', to: 'b', error: { message: 'a is down' } })
    expect(perCall).toEqual(events)
  })

  test('throws a non-retryable error at once without trying the next provider', async () => {
    const b = fake('b')
    const provider = fallback([fake('a', ['bad-request']), b])
    await expect(call(provider)).rejects.toMatchObject({ status: 400, retryable: false })
    expect(b.calls).toBe(0)
  })

  test('throws the last error when every provider fails', async () => {
    const provider = fallback([fake('a', ['down']), fake('b', ['down'])])
    await expect(call(provider)).rejects.toMatchObject({ message: 'b is down', retryable: true })
  })

  test('rethrows the abort reason without falling back', async () => {
    const b = fake('b')
    const controller = new AbortController()
    const reason = new Error('cancelled')
    const a: Provider = {
      id: 'a',
      complete: () => {
        controller.abort(reason)
        return Promise.reject(reason)
      },
    }
    await expect(fallback([a, b]).complete(request, { signal: controller.signal })).rejects.toBe(reason)
    expect(b.calls).toBe(0)
  })

  test('opens the circuit after maxFailures, skips the provider during the cooldown, then probes and closes', async () => {
    let now = 0
    const a = fake('a', ['down', 'down'])
    const b = fake('b')
    const events: FallbackEvent[] = []
    const provider = fallback([a, b], {
      maxFailures: 2,
      cooldownMs: 1_000,
      now: () => now,
      onFallback: (e) => events.push(e),
    })

    await call(provider)
    await call(provider)
    expect(a.calls).toBe(2)

    now = 500
    await expect(call(provider)).resolves.toMatchObject({ providerId: 'b' })
    expect(a.calls).toBe(2)
    expect(events.at(-1)?.error.message).toMatch(/a was skipped: its circuit is open/)

    now = 1_000
    await expect(call(provider)).resolves.toMatchObject({ providerId: 'a' })
    expect(a.calls).toBe(3)
    await expect(call(provider)).resolves.toMatchObject({ providerId: 'a' })
  })

  test('reopens the circuit at once when the probe after a cooldown fails', async () => {
    let now = 0
    const a = fake('a', ['down', 'down'])
    const provider = fallback([a, fake('b')], { maxFailures: 1, cooldownMs: 1_000, now: () => now })
    await call(provider)
    now = 1_000
    await expect(call(provider)).resolves.toMatchObject({ providerId: 'b' })
    expect(a.calls).toBe(2)
    now = 1_500
    await call(provider)
    expect(a.calls).toBe(2)
  })

  test('says when the first circuit closes if every provider is skipped', async () => {
    let now = 0
    const provider = fallback([fake('a', ['down']), fake('b', ['down'])], {
      maxFailures: 1,
      cooldownMs: 1_000,
      now: () => now,
    })
    await expect(call(provider)).rejects.toMatchObject({ message: 'b is down' })
    now = 400
    await expect(call(provider)).rejects.toMatchObject({
      retryable: true,
      retryAfterMs: 600,
      providerId: 'fallback(a, b)',
    })
  })

  test('falls back before the first streamed delta, using complete() when a provider cannot stream', async () => {
    const failing: Provider = {
      id: 'a',
      complete: () => Promise.reject(new Error('unused')),
      // eslint-disable-next-line require-yield -- a stream that fails before its first event
      async *stream(): AsyncIterable<CompletionEvent> {
        throw new ProviderError('a is down', { providerId: 'a', retryable: true, status: 500 })
      },
    }
    const events: CompletionEvent[] = []
    for await (const event of fallback([failing, fake('b')]).stream(request, {
      signal: new AbortController().signal,
    })) {
      events.push(event)
    }
    expect(events).toMatchObject([
      { type: 'text-delta', text: 'from b' },
      { type: 'done', completion: { providerId: 'b' } },
    ])
  })

  test('switches from a real SDK provider that gets 503 to the next one', async () => {
    const server = await startMockLlmServer({
      script: [{ status: 503, retryAfterMs: 1 }, { text: 'from backup' }],
    })
    try {
      const make = (model: string): OpenAiProvider =>
        new OpenAiProvider({ model, apiKey: 'sk-test', baseURL: server.openaiBaseURL, timeoutMs: 2_000 })
      const provider = fallback([make('primary'), make('backup')])
      await expect(call(provider)).resolves.toMatchObject({
        message: { text: 'from backup' },
        providerId: 'openai:backup',
      })
      expect(server.journal.map((r) => (r.body as { model: string }).model)).toEqual(['primary', 'backup'])
    } finally {
      await server.close()
    }
  })
})
