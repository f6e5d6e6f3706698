import { ConfigError, ProviderError, TimeoutError } from '../errors.ts'
import { CircuitBreaker } from './circuit-breaker.ts'
import type { CallOptions, Completion, CompletionEvent, CompletionRequest, Provider } from './provider.ts'

/** A call moved from one provider to the next. */
export interface FallbackEvent {
  from: string
  to: string
  /** why `from` was left: its error, or a ProviderError saying its circuit is open */
  error: Error
}

export interface FallbackOptions {
  /** retryable failures in a row before a provider is skipped for `cooldownMs` @default 3 */
  maxFailures?: number
  /** how long a provider whose circuit opened is skipped @default 30_000 */
  cooldownMs?: number
  /** called each time a call moves on to the next provider (a hook that throws is ignored) */
  onFallback?: (event: FallbackEvent) => void
  /** @default `fallback(<ids joined by ", ">)` */
  id?: string
  /** the breaker's clock, in ms @default Date.now */
  now?: () => number
}

/**
 * Tries providers in order, moving on after a timeout, 5xx, rate limit or connection error (any retryable
 * `ProviderError`); other errors and aborts are thrown at once. A provider that fails `maxFailures` times in a row
 * is skipped for `cooldownMs`, then one call probes it. The answer's `providerId` names the provider that gave it.
 */
export function fallback(providers: readonly Provider[], options: FallbackOptions = {}): FallbackProvider {
  return new FallbackProvider(providers, options)
}

export class FallbackProvider implements Provider {
  readonly id: string
  readonly capabilities: { structuredOutput: boolean }
  private readonly providers: readonly Provider[]
  private readonly breakers: CircuitBreaker[]
  private readonly onFallback: ((event: FallbackEvent) => void) | undefined
  private readonly now: () => number

  constructor(providers: readonly Provider[], options: FallbackOptions = {}) {
    if (providers.length === 0) throw new ConfigError('`fallback()` needs at least one provider.')
    this.providers = providers
    this.id = options.id ?? `fallback(${providers.map((p) => p.id).join(', ')})`
    this.capabilities = {
      structuredOutput: providers.every((p) => p.capabilities?.structuredOutput === true),
    }
    this.now = options.now ?? Date.now
    const { maxFailures = 3, cooldownMs = 30_000 } = options
    this.breakers = providers.map(() => new CircuitBreaker(maxFailures, cooldownMs))
    this.onFallback = options.onFallback
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<Completion> {
    const attempt = new Attempt()
    for (const { provider, breaker } of this.candidates(attempt, options)) {
      try {
        const completion = await provider.complete(request, { signal: options.signal })
        breaker.succeed()
        return { ...completion, providerId: completion.providerId ?? provider.id }
      } catch (error) {
        attempt.failed(provider.id, this.settle(breaker, error, options.signal))
      }
    }
    throw this.exhausted(attempt)
  }

  async *stream(request: CompletionRequest, options: CallOptions): AsyncIterable<CompletionEvent> {
    const attempt = new Attempt()
    for (const { provider, breaker } of this.candidates(attempt, options)) {
      let started = false
      try {
        for await (const event of streamOf(provider, request, { signal: options.signal })) {
          if (event.type === 'done') {
            breaker.succeed()
            const completion = { ...event.completion, providerId: event.completion.providerId ?? provider.id }
            yield { type: 'done', completion }
            return
          }
          started = true
          yield event
        }
        throw new ProviderError(`The stream from ${provider.id} ended without a completion`, {
          providerId: provider.id,
          retryable: true,
        })
      } catch (error) {
        const settled = this.settle(breaker, error, options.signal)
        // deltas already reached the caller, so another provider cannot take over
        if (started) throw settled
        attempt.failed(provider.id, settled)
      }
    }
    throw this.exhausted(attempt)
  }

  /** The providers to try in order: open circuits are skipped, and every move to the next one is reported. */
  private *candidates(
    attempt: Attempt,
    options: CallOptions,
  ): Generator<{ provider: Provider; breaker: CircuitBreaker }> {
    for (const [index, provider] of this.providers.entries()) {
      const breaker = this.breakers[index]
      if (!breaker) continue
      if (attempt.left)
        this.emit({ from: attempt.left.id, to: provider.id, error: attempt.left.error }, options)
      if (breaker.tryAcquire(this.now())) {
        yield { provider, breaker }
        continue
      }
      const open = new ProviderError(
        `${provider.id} was skipped: its circuit is open after repeated failures`,
        {
          providerId: provider.id,
          retryable: true,
          retryAfterMs: breaker.remainingMs(this.now()),
        },
      )
      attempt.left = { id: provider.id, error: open }
    }
  }

  /** Records the outcome on the breaker; throws at once unless the error is worth trying another provider. */
  private settle(breaker: CircuitBreaker, error: unknown, signal: AbortSignal): Error {
    if (signal.aborted) {
      breaker.release(this.now())
      throw error
    }
    if (!isFallbackError(error)) {
      // the provider answered, so it is up; the request itself is at fault
      breaker.succeed()
      throw error
    }
    breaker.fail(this.now())
    return error
  }

  /** The last real error; when every provider was skipped, a retryable error timed to the first circuit closing. */
  private exhausted(attempt: Attempt): Error {
    if (attempt.lastError) return attempt.lastError
    const retryAfterMs = Math.min(...this.breakers.map((breaker) => breaker.remainingMs(this.now())))
    return new ProviderError(`All providers of ${this.id} are skipped after repeated failures`, {
      providerId: this.id,
      retryable: true,
      retryAfterMs,
    })
  }

  private emit(event: FallbackEvent, options: CallOptions): void {
    for (const hook of [this.onFallback, options.onFallback]) {
      try {
        hook?.(event)
      } catch {
        // a hook must not change the outcome of the call
      }
    }
  }
}

/** What one call has seen so far. */
class Attempt {
  /** the provider the call is moving away from, and why */
  left: { id: string; error: Error } | undefined
  lastError: Error | undefined

  failed(id: string, error: Error): void {
    this.left = { id, error }
    this.lastError = error
  }
}

function isFallbackError(error: unknown): error is Error {
  return (error instanceof ProviderError && error.retryable) || error instanceof TimeoutError
}

async function* streamOf(
  provider: Provider,
  request: CompletionRequest,
  options: CallOptions,
): AsyncIterable<CompletionEvent> {
  if (provider.stream) {
    yield* provider.stream(request, options)
    return
  }
  const completion = await provider.complete(request, options)
  if (completion.message.text) yield { type: 'text-delta', text: completion.message.text }
  yield { type: 'done', completion }
}
