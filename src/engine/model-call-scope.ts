import type { Completion, Provider } from '../providers/provider.ts'
import type { TraceStep } from '../types.ts'
import type { ResponseCache } from './cache.ts'
import type { EmitEvent } from './event-channel.ts'
import type { Observer } from './observer.ts'
import type { ResolvedRetry } from './retry.ts'

/** What a model call needs from the run. */
export interface ModelCallScope {
  runId: string
  agent: string
  provider: Provider
  signal: AbortSignal
  observers: readonly Observer[]
  /** wait for each observer hook's promise @default false */
  awaitObservers?: boolean
  trace: TraceStep[]
  retry: ResolvedRetry
  requestTimeoutMs: number
  cache: ResponseCache | undefined
  trial: number
  /** set when streaming: text deltas go here */
  emit: EmitEvent | undefined
  /** the reply is structured output: while streaming, what parses of it so far is emitted as `partial-output` */
  partialOutput?: boolean
  /** the USD cost of a reply (null when unknown), traced with each call */
  price?: (completion: Completion) => number | null
}
