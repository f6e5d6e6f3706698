import { expect, test } from 'vitest'
import { runPool, type PoolSlot } from '../../src/runner/execute/pool.ts'

/** A job that waits for `release` from the test, then for `finish`; the pool's view of it is recorded. */
interface Held {
  id: number
  slot: PoolSlot
  finish: () => void
  fail: (error: Error) => void
}

/** Runs `count` jobs in a pool; each waits until the test ends it. `started` shows who runs now. */
function heldPool(count: number, concurrency: number, shouldStop = () => false) {
  const started: Held[] = []
  const done = runPool(
    Array.from({ length: count }, (_, id) => id)[Symbol.iterator](),
    concurrency,
    (id, slot) =>
      new Promise<void>((finish, fail) => {
        started.push({ id, slot, finish, fail })
      }),
    shouldStop,
  )
  return { started, done }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

test('holds at most `concurrency` jobs with a slot, and starts the next as one finishes', async () => {
  const { started, done } = heldPool(5, 2)
  await turn()
  expect(started.map((job) => job.id)).toEqual([0, 1])
  started[1]?.finish()
  await turn()
  expect(started.map((job) => job.id)).toEqual([0, 1, 2])
  for (let i = 0; i < 5; i++) {
    for (const job of started) job.finish()
    await turn()
  }
  await expect(done).resolves.toBeUndefined()
  expect(started.map((job) => job.id)).toEqual([0, 1, 2, 3, 4])
})

test('a job that releases its slot lets the next start, up to 64 in flight per slot', async () => {
  const { started, done } = heldPool(300, 2)
  await turn()
  for (let round = 0; round < 100; round++) {
    for (const job of started) job.slot.release()
    await turn()
  }
  // 2 slots: 128 jobs in flight, none finished, although every one released its slot
  expect(started).toHaveLength(128)
  started[0]?.slot.release()
  started[0]?.finish()
  await turn()
  expect(started).toHaveLength(129)
  // the job started in its place holds its slot until it releases it too
  await turn()
  expect(started).toHaveLength(129)
  for (let round = 0; round < 200; round++) {
    for (const job of started) {
      job.slot.release()
      job.finish()
    }
    await turn()
  }
  await expect(done).resolves.toBeUndefined()
  expect(new Set(started.map((job) => job.id)).size).toBe(300)
})

test('with a concurrency of 1 a job keeps its slot to the end, released or not', async () => {
  const { started, done } = heldPool(3, 1)
  await turn()
  started[0]?.slot.release()
  await turn()
  expect(started).toHaveLength(1)
  started[0]?.finish()
  await turn()
  expect(started).toHaveLength(2)
  started[1]?.finish()
  await turn()
  started[2]?.finish()
  await expect(done).resolves.toBeUndefined()
})

test('rejects with the first error and starts no job after it', async () => {
  const { started, done } = heldPool(10, 2)
  await turn()
  started[0]?.fail(new Error('disk full'))
  await expect(done).rejects.toThrow('disk full')
  started[1]?.finish()
  await turn()
  expect(started.map((job) => job.id)).toEqual([0, 1])
})

test('stops taking jobs once `shouldStop` says so; running jobs finish', async () => {
  let stop = false
  const { started, done } = heldPool(10, 2, () => stop)
  await turn()
  stop = true
  for (const job of started) job.finish()
  await expect(done).resolves.toBeUndefined()
  expect(started.map((job) => job.id)).toEqual([0, 1])
})

test('an error taking the next job rejects the pool, whenever it comes', async () => {
  let taken = 0
  const jobs: Iterator<number> = {
    next: () => {
      if (++taken === 3) throw new Error('the case list broke')
      return { done: false, value: taken }
    },
  }
  let finishFirst: (() => void) | undefined
  const done = runPool(
    jobs,
    2,
    (id) => new Promise<void>((finish) => (id === 1 ? (finishFirst = finish) : undefined)),
    () => false,
  )
  await turn()
  finishFirst?.()
  await expect(done).rejects.toThrow('the case list broke')
})
