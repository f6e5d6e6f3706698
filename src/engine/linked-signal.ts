import { setMaxListeners } from 'node:events'

/**
 * A signal of our own that aborts when `outer` does, with one listener on `outer`. Many calls may listen to it at
 * once without a MaxListenersExceededWarning; `unlink()` stops following `outer` once the work is done.
 */
export function linkedSignal(outer: AbortSignal | undefined): { signal: AbortSignal; unlink: () => void } {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  if (!outer) return { signal: controller.signal, unlink: () => undefined }
  const forward = (): void => {
    controller.abort(outer.reason)
  }
  if (outer.aborted) forward()
  else outer.addEventListener('abort', forward, { once: true })
  return {
    signal: controller.signal,
    unlink: () => {
      outer.removeEventListener('abort', forward)
    },
  }
}
