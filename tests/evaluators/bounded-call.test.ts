/**
 * `callBounded` runs the calls made in one turn of the event loop under one `vm` timeout (one watchdog thread per
 * turn, not per call). What must not change with that: each call settles with its own value or error, a call that
 * never returns is stopped at its own deadline, and one stopped at a batch mate's earlier deadline is not blamed.
 */
import { expect, test } from 'vitest'
import { TimeoutError } from '../../src/errors.ts'
import { callBounded } from '../../src/evaluators/bounded-call.ts'

function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // spins without yielding, as a stuck check does
  }
}

test('calls made in one turn settle each with its own value or error', async () => {
  const soon = performance.now() + 5000
  const settled = await Promise.allSettled([
    callBounded(() => 'a', soon, 'first'),
    callBounded(
      () => {
        throw new RangeError('bad input')
      },
      soon,
      'second',
    ),
    callBounded(() => Promise.resolve('c'), soon, 'third'),
    callBounded(() => 'd', undefined, 'fourth'),
  ])
  expect(settled).toEqual([
    { status: 'fulfilled', value: 'a' },
    { status: 'rejected', reason: new RangeError('bad input') },
    { status: 'fulfilled', value: 'c' },
    { status: 'fulfilled', value: 'd' },
  ])
})

test('a loop is stopped at its own deadline; the call queued after it still runs', async () => {
  const started = performance.now()
  const [stuck, after] = await Promise.allSettled([
    callBounded(
      () => {
        for (;;) {
          // never yields
        }
      },
      started + 150,
      'spins',
    ),
    callBounded(() => 'after', started + 10_000, 'after'),
  ])
  expect(stuck.status).toBe('rejected')
  if (stuck.status === 'rejected') {
    expect(stuck.reason).toBeInstanceOf(TimeoutError)
    expect((stuck.reason as Error).message).toMatch(/spins ran past the case's timeout/)
  }
  expect(after).toEqual({ status: 'fulfilled', value: 'after' })
  // stopped near its deadline, not at its batch mate's 10 s
  expect(performance.now() - started).toBeLessThan(5000)
})

test("a call stopped at a batch mate's earlier deadline runs again alone and returns", async () => {
  const started = performance.now()
  let runs = 0
  const [slow, hurried] = await Promise.all([
    callBounded(
      () => {
        runs++
        busy(500)
        return 'slow'
      },
      started + 10_000,
      'slow',
    ),
    // 200 ms: under load a thread can wait 50 ms before the batch runs, and a deadline already past stops both
    callBounded(() => 'hurried', started + 200, 'hurried'),
  ])
  expect(slow).toBe('slow')
  expect(hurried).toBe('hurried')
  // the first run was stopped at the 200 ms deadline of the call queued with it; the second ran to the end
  expect(runs).toBe(2)
})

test('process.exit in a call errors that call, named, and leaves process.exit as it was', async () => {
  const exit: unknown = Reflect.get(process, 'exit')
  const soon = performance.now() + 5000
  const settled = await Promise.allSettled([
    callBounded(() => 'fine', soon, 'fine'),
    callBounded(() => process.exit(3), soon, 'exits'),
  ])
  expect(settled[0]).toEqual({ status: 'fulfilled', value: 'fine' })
  expect(settled[1].status).toBe('rejected')
  if (settled[1].status === 'rejected')
    expect((settled[1].reason as Error).message).toMatch(/^exits called `process.exit\(3\)`/)
  expect(Reflect.get(process, 'exit')).toBe(exit)
})

test('a watchdog that fires just after the last call returned stops nothing and blames no one', async () => {
  // each call spins to a hair before its deadline, so the watchdog often fires between its return and the script's
  // (that once threw a TypeError out of the turn: the stopped call's index was past the batch)
  const errors: unknown[] = []
  const caught = (error: unknown): void => {
    errors.push(error)
  }
  process.on('uncaughtException', caught)
  try {
    for (let round = 0; round < 150; round++) {
      const deadline = performance.now() + 2
      const outcome = await Promise.allSettled([
        callBounded(
          () => {
            while (performance.now() < deadline - 0.02 * (round % 5)) {
              // spins up to the deadline
            }
            return round
          },
          deadline,
          'edge',
        ),
      ])
      expect(outcome[0]?.status === 'rejected' ? outcome[0].reason : undefined).toSatisfy(
        (reason: unknown) => reason === undefined || reason instanceof TimeoutError,
      )
    }
  } finally {
    process.off('uncaughtException', caught)
  }
  expect(errors).toEqual([])
})
