/** What a job may do with its slot while it runs. */
export interface PoolSlot {
  /**
   * The job no longer needs its slot (it waits on work shared with other jobs): the next job starts in its place.
   * Idempotent; a finished job's slot is released for it.
   */
  release(): void
}

/**
 * How many jobs may be in flight per slot, counting those that released theirs: the jobs waiting on a batch of
 * `custom:` checks, which runs under one `vm` timeout whose watchdog thread costs 0.1–0.5 ms on Node 24. At 64, a
 * 10k-case run with a `custom:` check starts 40 watchdogs instead of 157.
 */
const IN_FLIGHT_PER_SLOT = 64

/**
 * Runs `work` over `jobs` with at most `concurrency` holding a slot at once, pulling jobs lazily so a 100k-job run never
 * queues 100k closures. A job that releases its slot early lets the next one start, up to `concurrency × 64` in
 * flight; with a concurrency of 1 a job keeps its slot to the end, so each runs start to end before the next. Stops
 * taking jobs once `shouldStop()` is true; running jobs finish. Rejects with the first error of a job or of `jobs`,
 * and starts no job after it.
 */
export function runPool<Job>(
  jobs: Iterator<Job>,
  concurrency: number,
  work: (job: Job, slot: PoolSlot) => Promise<void>,
  shouldStop: () => boolean,
): Promise<void> {
  const slots = Math.max(1, concurrency)
  const cap = slots === 1 ? 1 : slots * IN_FLIGHT_PER_SLOT
  let free = slots
  let inFlight = 0
  let exhausted = false
  let failed = false
  return new Promise<void>((resolve, reject) => {
    const fail = (error: unknown): void => {
      failed = true
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the job's own error, passed on as thrown
      reject(error)
    }
    const pump = (): void => {
      try {
        while (free > 0 && inFlight < cap && !exhausted && !failed && !shouldStop()) {
          const next = jobs.next()
          if (next.done === true) exhausted = true
          else start(next.value)
        }
      } catch (error) {
        fail(error)
      }
      if (inFlight === 0 && !failed) resolve()
    }
    const start = (job: Job): void => {
      free--
      inFlight++
      let held = true
      const slot: PoolSlot = {
        release: () => {
          if (!held) return
          held = false
          free++
          queueMicrotask(pump)
        },
      }
      work(job, slot).then(
        () => {
          inFlight--
          if (held) slot.release()
          else pump()
        },
        (error: unknown) => {
          inFlight--
          fail(error)
        },
      )
    }
    pump()
  })
}
