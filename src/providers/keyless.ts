import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Whether the run's cassettes answer a model's calls without an API key (`--replay`): `serves`, or why not — set
 * when replaying, so a missing key says the cassette is the cause rather than only naming the variable.
 */
export type KeylessAnswer = { serves: true } | { serves: false; why?: string }

// shared by every copy of this module in the process (see engine/call-scope.ts)
const shared = globalThis as {
  [key: symbol]: AsyncLocalStorage<(model: string) => KeylessAnswer> | undefined
}
const storage = (shared[Symbol.for('evals.keylessModels')] ??= new AsyncLocalStorage<
  (model: string) => KeylessAnswer
>())

/**
 * Runs `work` where model strings `keyless` serves resolve without an API key: `--replay` answers their calls from
 * a cassette, so CI needs no key.
 */
export function withKeylessModels<T>(keyless: (model: string) => KeylessAnswer, work: () => T): T {
  return storage.run(keyless, work)
}

/** A stand-in key for a model the current replay serves without one; undefined otherwise. */
export function replayOnlyKey(model: string): string | undefined {
  return storage.getStore()?.(model).serves === true ? 'replay-without-key' : undefined
}

/** Why the current replay cannot stand in for a model's key; undefined when not replaying. */
export function whyReplayNeedsKey(model: string): string | undefined {
  const answer = storage.getStore()?.(model)
  return answer?.serves === false ? answer.why : undefined
}
