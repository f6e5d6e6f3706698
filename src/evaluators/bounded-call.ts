import { createContext, Script } from 'node:vm'
import { TimeoutError } from '../errors.ts'

interface Call {
  fn: () => unknown
  /** `performance.now()` by which the call must return; Infinity for none */
  deadline: number
  label: string
  queuedAt: number
  settle: (outcome: { value: unknown } | { error: unknown }) => void
}

const script = new Script('runQueued()')
const sandbox = createContext({ runQueued: undefined as (() => void) | undefined })
/**
 * Calls waiting for the next turn, then one turn's batch. A settled call's place is emptied at once: a finished
 * batch may stay reachable for a while (the closures it ran through), and its calls reach their pairs' transcripts
 * and results. Listed, they survived young-generation collections: a 10k-case run's scavenges copied ~8 MB of
 * finished pairs each (11–14 ms instead of 1–5), measured with `--trace-gc`.
 */
type Batch = (Call | undefined)[]

let queued: Batch = []

/**
 * Calls `fn` in the main thread, where it can share state with the user's own modules, with its synchronous part
 * bounded: a `vm` timeout stops a loop that never yields (V8 terminates whatever runs, our realm's functions too),
 * and `process.exit()` called meanwhile throws instead of ending the runner. Whatever `fn` does after its first
 * `await` is bounded by the case timeout as any promise is (the pair settles without it), not stopped.
 *
 * A `vm` timeout starts and joins a watchdog thread per call (50–100 µs, far more on a busy machine), so the calls
 * made in one turn of the event loop run together under one timeout: the earliest of their deadlines. A call stopped
 * there before its own deadline ran synchronously that long; it runs again alone, under its own deadline, so a
 * verdict never depends on which calls shared its turn (the price: such a check's side effects happen twice).
 */
export function callBounded<T>(fn: () => T, deadline: number | undefined, label: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = (outcome: { value: unknown } | { error: unknown }): void => {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a check's own throw, passed on as thrown
      if ('error' in outcome) reject(outcome.error)
      else resolve(outcome.value as T)
    }
    if (queued.push({ fn, deadline: deadline ?? Infinity, label, queuedAt: performance.now(), settle }) === 1)
      setImmediate(runTurn)
  })
}

function runTurn(): void {
  let rest = queued
  queued = []
  while (rest.length > 0) {
    const stop = runBatch(rest)
    if (stop === undefined) return
    const call = rest[stop.at]
    // emptied: the watchdog fired after that call had settled and left its place, before the next one began
    if (call !== undefined) settleStopped(call, stop.error, rest.length > 1)
    rest = rest.slice(stop.at + 1)
  }
}

/** A call its batch's `vm` call stopped: its error, or, when stopped at a batch mate's deadline, again alone. */
function settleStopped(call: Call, error: unknown, hadMates: boolean): void {
  if (error !== undefined) call.settle({ error })
  else if (call.deadline > performance.now() && hadMates) runAlone(call)
  else call.settle({ error: timedOut(call) })
}

function runAlone(call: Call): void {
  const stop = runBatch([call])
  if (stop !== undefined) call.settle({ error: stop.error ?? timedOut(call) })
}

/**
 * Runs `calls` in order under one timeout, the earliest of their deadlines. Each call's return or throw settles it
 * and empties its place; a call the timeout stopped (or that broke the `vm` call otherwise) is left to the caller, by
 * index.
 */
function runBatch(calls: Batch): { at: number; error?: unknown } | undefined {
  const deadline = calls.reduce((earliest, call) => Math.min(earliest, call?.deadline ?? Infinity), Infinity)
  const timeout = deadline === Infinity ? undefined : Math.max(1, Math.floor(deadline - performance.now()))
  let current = 0
  sandbox.runQueued = () => {
    for (; current < calls.length; current++) {
      const call = calls[current] as Call
      try {
        call.settle({ value: call.fn() })
      } catch (error) {
        call.settle({ error })
      }
      calls[current] = undefined
    }
  }
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was (a bound copy nests per call)
  const exit = process.exit
  process.exit = (code?: number | string | null) => {
    throw new Error(
      `${calls[current]?.label ?? 'a check'} called \`process.exit(${String(code ?? '')})\`; a check returns its verdict instead`,
    )
  }
  try {
    script.runInContext(sandbox, timeout === undefined ? {} : { timeout })
    return undefined
  } catch (error) {
    // the watchdog can fire after the last call has settled, before the script returns: nothing was stopped
    if (current >= calls.length) return undefined
    const timedOut = (error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
    return timedOut ? { at: current } : { at: current, error }
  } finally {
    sandbox.runQueued = undefined
    process.exit = exit
  }
}

function timedOut(call: Call): TimeoutError {
  const left = Math.max(0, Math.round(call.deadline - call.queuedAt))
  return new TimeoutError(
    `${call.label} ran past the case's timeout (${String(left)}ms left) and was stopped`,
    left,
  )
}
