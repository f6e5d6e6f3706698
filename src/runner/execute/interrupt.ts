import { AbortError } from '../../errors.ts'
import type { RunReport } from '../../model/run-report.ts'

/** How a run is stopped: the caller's signal (after a grace period) or `bail`. */
export interface Interrupt {
  /** aborts the pairs still running once the grace period after an interrupt is over */
  signal: AbortSignal
  stoppedBy: RunReport['stoppedBy']
  dispose: () => void
}

/** Watches the caller's `signal`: once it aborts, no new pair starts, and those running get `graceMs` to finish. */
export function watchInterrupt(options: { signal?: AbortSignal | undefined; graceMs: number }): Interrupt {
  const interrupt = new AbortController()
  let graceTimer: NodeJS.Timeout | undefined
  const state: Interrupt = {
    signal: interrupt.signal,
    stoppedBy: undefined,
    dispose: () => {
      clearTimeout(graceTimer)
      options.signal?.removeEventListener('abort', onSignal)
    },
  }
  const onSignal = (): void => {
    state.stoppedBy ??= 'interrupt'
    graceTimer = setTimeout(() => {
      interrupt.abort(new AbortError('the run was interrupted before this case finished'))
    }, options.graceMs)
  }
  if (options.signal?.aborted === true) onSignal()
  else options.signal?.addEventListener('abort', onSignal, { once: true })
  return state
}
