import { AsyncLocalStorage } from 'node:async_hooks'
import type { Completion, CompletionRequest } from '../providers/provider.ts'
import type { RateLimiters } from './rate-limit.ts'

/**
 * Serves and saves model and tool calls for one suite (record/replay). The engine asks it once per logical call
 * (retries included) and saves what the call returned when nothing was replayed.
 */
export interface CallRecorder {
  /** throws when replaying strictly and the cassette has no such call */
  model(call: { scope: CallScope; providerId: string; request: CompletionRequest }): RecordedCall<Completion>
  /** throws when replaying strictly and the cassette has no such call */
  tool(call: { scope: CallScope; tool: string; args: unknown }): RecordedCall<RecordedToolOutcome>
}

/** One call looked up in a cassette: the recorded value, or `save` to record the live one. */
export interface RecordedCall<Value> {
  replayed: Value | undefined
  save(value: Value): void
}

/** A tool call's recorded end: a result or an error message. */
export type RecordedToolOutcome = { ok: true; result: unknown } | { ok: false; error: string }

/**
 * The (case, trial) a model call belongs to. The runner enters one per pair, so every call of any Agent built with
 * this engine (targets, judges, providers users construct themselves) is recorded, replayed and rate limited
 * without options threaded through user code.
 */
export interface CallScope {
  suite: string
  caseId: string
  trial: number
  recorder?: CallRecorder
  limiters?: RateLimiters
  /** how often each request hash was seen in this pair: repeated identical requests get their own entries */
  readonly seen: Map<string, number>
}

// one store per process, shared by every copy of this module: a user's agent module loaded through tsx (or from
// another install of the package) gets its own module instances, and must still see the runner's scope
const shared = globalThis as { [key: symbol]: AsyncLocalStorage<CallScope> | boolean | undefined }
const storage = (shared[Symbol.for('evals.callScope')] ??=
  new AsyncLocalStorage<CallScope>()) as AsyncLocalStorage<CallScope>
const READERS = Symbol.for('evals.callScopeReaders')

/**
 * Runs `work` with `scope` as the current call scope (for it and everything it awaits). On Node 20 a scope costs
 * every promise in the process a hook, so it is entered only when something can read it: a recorder is set, or a
 * module that calls models (the engine) has been loaded. A plain function target never pays for it.
 */
export function runInCallScope<T>(scope: Omit<CallScope, 'seen'>, work: () => T): T {
  if (scope.recorder === undefined && shared[READERS] !== true) return work()
  return storage.run({ ...scope, seen: new Map() }, work)
}

/** For modules that make model or tool calls: registers them as readers (at import) and returns the scope getter. */
export function callScopeReader(): () => CallScope | undefined {
  shared[READERS] = true
  return () => storage.getStore()
}
