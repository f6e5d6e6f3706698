import { AsyncLocalStorage } from 'node:async_hooks'

// one store per process, shared by every copy of this module (a user's agent module may load its own copy of the
// engine): the HTTP layer of the runner must see the marks its providers make
const shared = globalThis as { [key: symbol]: AsyncLocalStorage<true> | undefined }
const MARKS = Symbol.for('evals.ownModelCalls')

/**
 * The `fetch` our providers hand their SDK: while an HTTP-layer recorder is installed (`--record`, `--replay`,
 * pacing of other SDKs), each call runs marked as ours, so the layer lets it through untouched: the engine already
 * records, replays and paces its model calls itself. With no layer installed it is `fetch` itself, at no cost.
 */
export function markedAsOwn(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const marks = shared[MARKS]
    return marks ? marks.run(true, () => fetch(input, init)) : fetch(input, init)
  }
}

/** Whether the current call is one of our providers' (made through `markedAsOwn`). */
export function isOwnModelCall(): boolean {
  return shared[MARKS]?.getStore() === true
}

/** Turns marking on, for the HTTP layer; marks cost an async context per call only from then on. */
export function watchOwnModelCalls(): void {
  shared[MARKS] ??= new AsyncLocalStorage<true>()
}
