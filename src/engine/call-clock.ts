/** When a call started: the wall clock for the trace, the monotonic one for its duration. */
export interface CallClock {
  startedAt: number
  started: number
}

export function startClock(): CallClock {
  return { startedAt: Date.now(), started: performance.now() }
}
