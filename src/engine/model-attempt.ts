import { AbortError, ProviderError, TimeoutError, toError } from '../errors.ts'
import type { CallOptions, Completion, CompletionRequest } from '../providers/provider.ts'
import type { RateLimitReading } from '../types.ts'
import type { ModelCallScope } from './model-call-scope.ts'
import { notify } from './notify.ts'
import { partialOutputTracker } from './partial-output.ts'
import type { RateLimitSlot } from './rate-limit.ts'
import { abortReason } from './retry.ts'

/** Makes one attempt and tells the rate limiter's slot how it went, and what the provider's headers said. */
export async function attemptInSlot(
  request: CompletionRequest,
  iteration: number,
  scope: ModelCallScope,
  slot: RateLimitSlot | undefined,
): Promise<Completion> {
  let reading: RateLimitReading | undefined
  const onRateLimit = slot && ((read: RateLimitReading) => (reading = read))
  let completion: Completion
  try {
    completion = await attemptCall(request, iteration, scope, onRateLimit)
  } catch (thrown) {
    const error = toError(thrown)
    if (isRateLimit(error)) {
      slot?.done({ rateLimited: true, retryAfterMs: error.retryAfterMs }, error.rateLimit ?? reading)
    } else slot?.done('failed', error instanceof ProviderError ? (error.rateLimit ?? reading) : reading)
    throw error
  }
  slot?.done('ok', reading)
  return completion
}

export function isRateLimit(error: Error): error is ProviderError {
  return error instanceof ProviderError && error.status === 429
}

/** One request to the provider (streamed when the run streams), under the request timeout and the run's signal. */
async function attemptCall(
  request: CompletionRequest,
  iteration: number,
  scope: ModelCallScope,
  onRateLimit: CallOptions['onRateLimit'],
): Promise<Completion> {
  const timeoutMs = scope.requestTimeoutMs
  const controller = new AbortController()
  const onAbort = (): void => {
    controller.abort(abortReason(scope.signal))
  }
  scope.signal.addEventListener('abort', onAbort, { once: true })
  const timer = setTimeout(() => {
    controller.abort(
      new TimeoutError(`Model call to \`${scope.provider.id}\` timed out after ${timeoutMs} ms.`, timeoutMs),
    )
  }, timeoutMs)
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => {
      reject(toError(controller.signal.reason ?? new AbortError('aborted')))
    })
  })
  try {
    const work =
      scope.emit && scope.provider.stream
        ? streamCall(request, iteration, scope, callOptions(scope, controller.signal, onRateLimit))
        : scope.provider
            .complete(request, callOptions(scope, controller.signal, onRateLimit))
            .then((completion) => {
              const { text } = completion.message
              if (text && scope.emit) {
                void scope.emit({ type: 'text-delta', text, iteration })
                if (scope.partialOutput) partialOutputTracker(scope.emit, iteration)(text)
              }
              return completion
            })
    return await Promise.race([work, aborted])
  } finally {
    clearTimeout(timer)
    scope.signal.removeEventListener('abort', onAbort)
  }
}

async function streamCall(
  request: CompletionRequest,
  iteration: number,
  scope: ModelCallScope,
  options: CallOptions,
): Promise<Completion> {
  const { signal } = options
  const stream = scope.provider.stream?.(request, options)
  if (!stream) throw new Error('provider has no stream()')
  // each attempt parses its own reply: a retried one starts again
  const partial = scope.partialOutput && scope.emit ? partialOutputTracker(scope.emit, iteration) : undefined
  for await (const event of stream) {
    // the reader left `agent.stream()`: stop reading the reply
    signal.throwIfAborted()
    if (event.type === 'text-delta') {
      void scope.emit?.({ type: 'text-delta', text: event.text, iteration })
      partial?.(event.text)
    } else if (event.type === 'reasoning-delta')
      void scope.emit?.({ type: 'reasoning-delta', text: event.text, iteration })
    else if (event.type === 'done') return event.completion
  }
  throw new Error(`The stream from \`${scope.provider.id}\` ended without a final completion.`)
}

function callOptions(
  scope: ModelCallScope,
  signal: AbortSignal,
  onRateLimit: CallOptions['onRateLimit'],
): CallOptions {
  return {
    signal,
    ...(onRateLimit === undefined ? {} : { onRateLimit }),
    onFallback: ({ from, to, error }) => {
      scope.trace.push({
        type: 'fallback',
        startedAt: Date.now(),
        durationMs: 0,
        from,
        to,
        error: error.message,
      })
      void notify(scope.observers, 'onFallback', { runId: scope.runId, agent: scope.agent, from, to, error })
    },
  }
}
