import { toError } from '../errors.ts'
import { estimateUsage } from '../providers/estimate-usage.ts'
import type { Completion, CompletionRequest } from '../providers/provider.ts'
import { callScopeReader } from './call-scope.ts'
import { cacheKey } from './cache-key.ts'
import { attemptInSlot, isRateLimit } from './model-attempt.ts'
import type { ModelCallScope } from './model-call-scope.ts'
import { startClock, type CallClock } from './call-clock.ts'
import { notify } from './notify.ts'
import type { AdaptiveLimiter } from './rate-limit.ts'
import { abortReason, isRetryable, retryDelayMs, sleep } from './retry.ts'

const currentCallScope = callScopeReader()

/** Calls the model once, through the cache, with timeouts and retries; every attempt lands in the trace. */
export async function callModel(
  request: CompletionRequest,
  iteration: number,
  scope: ModelCallScope,
): Promise<Completion> {
  const { provider } = scope
  const key = scope.cache ? cacheKey(provider.id, request, scope.trial) : undefined
  const clock = startClock()
  await notify(
    scope.observers,
    'onLlmStart',
    { runId: scope.runId, agent: scope.agent, iteration, providerId: provider.id, request },
    scope.awaitObservers,
  )
  // an awaited observer may have taken long enough for the run to be aborted
  if (scope.awaitObservers === true) scope.signal.throwIfAborted()
  // the runner's per-case scope: cassette and rate limiter, whoever built the Agent
  const ambient = currentCallScope()
  const recorded = ambient?.recorder?.model({ scope: ambient, providerId: provider.id, request })
  if (recorded?.replayed) return replayedCall(recorded.replayed, iteration, scope, clock)
  if (key !== undefined && scope.cache) {
    const cached = (await scope.cache.get(key)) as Completion | undefined
    if (cached) {
      recorded?.save(cached)
      await cacheHit(cached, { iteration, key }, scope, clock)
      return cached
    }
  }
  return callWithRetries(request, iteration, scope, {
    limiter: ambient?.limiters?.for(provider.id),
    keep: async (completion) => {
      recorded?.save(completion)
      if (key !== undefined) await scope.cache?.set(key, completion)
    },
  })
}

/** How a live call is made: under the runner's rate limiter, and what it does with the reply. */
interface LiveCall {
  limiter: AdaptiveLimiter | undefined
  /** saves the reply to the cassette and the cache */
  keep: (completion: Completion) => Promise<void>
}

/** Calls the provider until a reply comes in, waiting out and retrying what may be retried. */
async function callWithRetries(
  request: CompletionRequest,
  iteration: number,
  scope: ModelCallScope,
  live: LiveCall,
): Promise<Completion> {
  const spent: RetriesSpent = { retries: 0, rateLimitRetries: 0 }
  for (let attempt = 1; ; attempt++) {
    const slot = await live.limiter?.acquire(scope.signal, { tokens: estimatedTokens(request) })
    const clock = startClock()
    try {
      const completion = await attemptInSlot(request, iteration, scope, slot)
      const durationMs = performance.now() - clock.started
      traceLlmCall(scope, iteration, completion, clock.startedAt, durationMs)
      await llmEnded(scope, iteration, completion, durationMs, false)
      await live.keep(completion)
      return completion
    } catch (thrown) {
      const { error, delayMs } = retryAfter(thrown, scope, live.limiter, spent)
      await announceRetry(scope, { iteration, attempt, delayMs, error }, clock)
      await sleep(delayMs, scope.signal)
    }
  }
}

/** What a provider's token budget is charged for a request: its prompt, and the output it may generate. */
function estimatedTokens(request: CompletionRequest): number {
  return estimateUsage(request, '', []).inputTokens + (request.settings?.maxTokens ?? 0)
}

/** The retries a call has made so far, on each budget. */
interface RetriesSpent {
  retries: number
  rateLimitRetries: number
}

/** How long to wait before the next attempt; rethrows when the failure is final (an abort, or out of retries). */
function retryAfter(
  thrown: unknown,
  scope: ModelCallScope,
  limiter: AdaptiveLimiter | undefined,
  spent: RetriesSpent,
): { error: Error; delayMs: number } {
  if (scope.signal.aborted) throw abortReason(scope.signal)
  const error = toError(thrown)
  if (!isRetryable(error)) throw error
  // under the runner's limiter a 429 waits its turn on its own budget; maxRetries 0 still means fail fast
  const waitsOut = limiter !== undefined && isRateLimit(error) && scope.retry.maxRetries > 0
  if (
    waitsOut
      ? ++spent.rateLimitRetries > limiter.maxRateLimitRetries
      : ++spent.retries > scope.retry.maxRetries
  )
    throw error
  return {
    error,
    delayMs: retryDelayMs(error, waitsOut ? spent.rateLimitRetries : spent.retries, scope.retry),
  }
}

async function announceRetry(
  scope: ModelCallScope,
  {
    iteration,
    attempt,
    delayMs,
    error,
  }: { iteration: number; attempt: number; delayMs: number; error: Error },
  clock: CallClock,
): Promise<void> {
  scope.trace.push({
    type: 'retry',
    startedAt: clock.startedAt,
    durationMs: performance.now() - clock.started,
    iteration,
    providerId: scope.provider.id,
    attempt,
    delayMs,
    error: error.message,
  })
  await notify(
    scope.observers,
    'onRetry',
    { runId: scope.runId, agent: scope.agent, attempt, delayMs, error },
    scope.awaitObservers,
  )
}

/** A reply served from the response cache: a `cache_hit` step, observed as cached. */
async function cacheHit(
  cached: Completion,
  { iteration, key }: { iteration: number; key: string },
  scope: ModelCallScope,
  clock: CallClock,
): Promise<void> {
  const durationMs = performance.now() - clock.started
  const { startedAt } = clock
  scope.trace.push({
    type: 'cache_hit',
    startedAt,
    durationMs,
    iteration,
    providerId: scope.provider.id,
    key,
  })
  if (cached.message.text) void scope.emit?.({ type: 'text-delta', text: cached.message.text, iteration })
  await llmEnded(scope, iteration, cached, durationMs, true)
}

/** A call served from the cassette: traced and observed like a live one, so replayed transcripts match. */
async function replayedCall(
  completion: Completion,
  iteration: number,
  scope: ModelCallScope,
  clock: CallClock,
): Promise<Completion> {
  const durationMs = performance.now() - clock.started
  traceLlmCall(scope, iteration, completion, clock.startedAt, durationMs)
  if (completion.message.text)
    void scope.emit?.({ type: 'text-delta', text: completion.message.text, iteration })
  await llmEnded(scope, iteration, completion, durationMs, false)
  return completion
}

function traceLlmCall(
  scope: ModelCallScope,
  iteration: number,
  completion: Completion,
  startedAt: number,
  durationMs: number,
): void {
  const reasoning = reasoningText(completion)
  scope.trace.push({
    type: 'llm_call',
    startedAt,
    durationMs,
    iteration,
    providerId: completion.providerId ?? scope.provider.id,
    model: completion.model,
    usage: completion.usage,
    finishReason: completion.finishReason,
    toolCalls: completion.message.toolCalls.length,
    ...(scope.price ? { costUsd: scope.price(completion) } : {}),
    ...(reasoning ? { reasoning } : {}),
  })
}

/** The reasoning a reply showed, its parts one paragraph each; '' when it showed none. */
export function reasoningText(completion: Completion): string {
  return (completion.reasoning ?? [])
    .map((part) => part.text)
    .filter(Boolean)
    .join('\n\n')
}

function llmEnded(
  scope: ModelCallScope,
  iteration: number,
  completion: Completion,
  durationMs: number,
  cached: boolean,
): Promise<void> | undefined {
  const { runId, agent, provider } = scope
  const event = { runId, agent, iteration, providerId: provider.id, completion, durationMs, cached }
  return notify(scope.observers, 'onLlmEnd', event, scope.awaitObservers)
}
