/**
 * Work that several test files need and that only has to be done once per run (e.g. `npm pack` of this checkout):
 * the first file to ask does it, the others, in other workers, wait for its result. The global setup names the
 * run's scratch folder in an environment variable the workers inherit; outside it (a run of another vitest config)
 * each file does the work itself.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const SHARED_DIR_VARIABLE = 'AGENT_EVALS_TEST_SHARED_DIR'

/** how long a file waits for another to finish the work before it gives up */
const WAIT_MS = 180_000

/**
 * The result of `make(dir)` for `name`, made once per test run: `dir` is a folder for its files (kept to the end of
 * the run), and the result must survive JSON.
 */
export function oncePerRun<T>(name: string, make: (dir: string) => T): T {
  const claim = claimWork(name)
  if (claim.kind === 'wait') {
    const pause = new Int32Array(new SharedArrayBuffer(4))
    while (!claim.done()) Atomics.wait(pause, 0, 0, POLL_MS)
    return claim.result() as T
  }
  try {
    return claim.finish({ value: make(claim.dir) })
  } catch (error) {
    return claim.finish({ error: error instanceof Error ? error.message : String(error) })
  }
}

/** `oncePerRun` for work that is asynchronous, e.g. an esbuild build; waiting does not block the thread. */
export async function oncePerRunAsync<T>(name: string, make: (dir: string) => Promise<T>): Promise<T> {
  const claim = claimWork(name)
  if (claim.kind === 'wait') {
    while (!claim.done()) await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    return claim.result() as T
  }
  try {
    return claim.finish({ value: await make(claim.dir) })
  } catch (error) {
    return claim.finish({ error: error instanceof Error ? error.message : String(error) })
  }
}

const POLL_MS = 100

type Outcome<T> = { value: T } | { error: string }

type Claim =
  | { kind: 'make'; dir: string; finish: <T>(outcome: Outcome<T>) => T }
  | { kind: 'wait'; done: () => boolean; result: () => unknown }

/** Makes `name`'s folder, or finds another file made it first: then that file's result is the one to wait for. */
function claimWork(name: string): Claim {
  const shared = process.env[SHARED_DIR_VARIABLE]
  if (shared === undefined || !existsSync(shared))
    return { kind: 'make', dir: mkdtempSync(join(tmpdir(), `${name}-`)), finish: unwrap }
  const dir = join(shared, name)
  const result = join(shared, `${name}.json`)
  try {
    mkdirSync(dir)
  } catch {
    const deadline = Date.now() + WAIT_MS
    return {
      kind: 'wait',
      done: () => {
        if (existsSync(result)) return true
        if (Date.now() > deadline)
          throw new Error(`waited ${WAIT_MS} ms for another test file to make ${name}`)
        return false
      },
      result: () => {
        const outcome = JSON.parse(readFileSync(result, 'utf8')) as Outcome<unknown>
        if ('error' in outcome) throw new Error(`${name} failed in another test file: ${outcome.error}`)
        return outcome.value
      },
    }
  }
  return {
    kind: 'make',
    dir,
    finish: (outcome) => {
      writeFileSync(`${result}.tmp`, JSON.stringify(outcome))
      renameSync(`${result}.tmp`, result)
      return unwrap(outcome)
    },
  }
}

function unwrap<T>(outcome: Outcome<T>): T {
  if ('error' in outcome) throw new Error(outcome.error)
  return outcome.value
}
