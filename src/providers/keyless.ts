import { AsyncLocalStorage } from 'node:async_hooks'

// shared by every copy of this module in the process (see engine/call-scope.ts)
const shared = globalThis as { [key: symbol]: AsyncLocalStorage<(model: string) => boolean> | undefined }
const storage = (shared[Symbol.for('evals.keylessModels')] ??= new AsyncLocalStorage<
  (model: string) => boolean
>())

/**
 * Runs `work` where model strings for which `servesWithoutKey` is true resolve without an API key: `--replay`
 * answers their calls from a cassette, so CI needs no key.
 */
export function withKeylessModels<T>(servesWithoutKey: (model: string) => boolean, work: () => T): T {
  return storage.run(servesWithoutKey, work)
}

/** A stand-in key for a model the current replay serves without one; undefined otherwise. */
export function replayOnlyKey(model: string): string | undefined {
  return storage.getStore()?.(model) === true ? 'replay-without-key' : undefined
}
