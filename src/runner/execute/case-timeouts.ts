/** A pair that can be stopped by its timeout or by the run's interrupt. */
export interface Stoppable {
  /** when its timeout falls, on the `performance.now()` clock */
  readonly deadline: number
  /** its timeout fell */
  expire(): void
  /** the run was interrupted */
  interrupt(reason: unknown): void
}

const byInterrupt = new WeakMap<AbortSignal, CaseTimeouts>()
/**
 * the watchers with pairs running: if the event loop empties meanwhile (a target hung on a promise nothing will
 * settle), their timers hold the process open
 */
const busy = new Set<CaseTimeouts>()
let watchingExit = false

/**
 * The per-case timeouts (`timeout_ms`, `--timeout`) of the pairs running under one interrupt signal, and the
 * interrupt itself: watched by a single timer armed for the earliest deadline and a
 * single abort listener: a pair costs a set insertion, not a timer and a listener of its own. The timer never holds
 * the process open on its own (a finished run exits at once), except when nothing else would while pairs run
 * (`beforeExit`): so a target hung on a promise nothing will settle still times out.
 */
export class CaseTimeouts {
  readonly #pairs = new Set<Stoppable>()
  #timer: NodeJS.Timeout | undefined
  #armedFor = Number.POSITIVE_INFINITY

  private constructor(interrupt: AbortSignal) {
    interrupt.addEventListener(
      'abort',
      () => {
        for (const pair of [...this.#pairs]) pair.interrupt(interrupt.reason)
      },
      { once: true },
    )
  }

  /** The watcher of the pairs run under `interrupt`, made on first use. */
  static of(interrupt: AbortSignal): CaseTimeouts {
    let timeouts = byInterrupt.get(interrupt)
    if (!timeouts) byInterrupt.set(interrupt, (timeouts = new CaseTimeouts(interrupt)))
    return timeouts
  }

  add(pair: Stoppable): void {
    if (this.#pairs.size === 0) busy.add(this)
    this.#pairs.add(pair)
    if (pair.deadline < this.#armedFor) this.#arm(pair.deadline)
  }

  delete(pair: Stoppable): void {
    this.#pairs.delete(pair)
    if (this.#pairs.size === 0) busy.delete(this)
  }

  /** the event loop has nothing else to wait for, yet pairs run: their next deadline holds the process open */
  static #holdOpen(): void {
    for (const timeouts of busy) timeouts.#timer?.ref()
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer)
    this.#armedFor = deadline
    this.#timer = setTimeout(
      () => {
        this.#expire()
      },
      Math.max(0, deadline - performance.now()),
    ).unref()
    if (!watchingExit) {
      watchingExit = true
      process.on('beforeExit', () => {
        CaseTimeouts.#holdOpen()
      })
    }
  }

  #expire(): void {
    this.#timer = undefined
    this.#armedFor = Number.POSITIVE_INFINITY
    const now = performance.now()
    let next = Number.POSITIVE_INFINITY
    for (const pair of [...this.#pairs]) {
      // a timer may fire a little before its time on this clock: a millisecond's slack
      if (pair.deadline <= now + 1) {
        this.delete(pair)
        pair.expire()
      } else next = Math.min(next, pair.deadline)
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next)
  }
}
