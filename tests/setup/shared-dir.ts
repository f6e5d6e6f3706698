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
  const shared = process.env[SHARED_DIR_VARIABLE]
  if (shared === undefined || !existsSync(shared)) return make(mkdtempSync(join(tmpdir(), `${name}-`)))
  const dir = join(shared, name)
  const result = join(shared, `${name}.json`)
  try {
    mkdirSync(dir)
  } catch {
    return waitFor(name, result) as T
  }
  let outcome: { value: T } | { error: string }
  try {
    outcome = { value: make(dir) }
  } catch (error) {
    outcome = { error: error instanceof Error ? error.message : String(error) }
  }
  writeFileSync(`${result}.tmp`, JSON.stringify(outcome))
  renameSync(`${result}.tmp`, result)
  if ('error' in outcome) throw new Error(outcome.error)
  return outcome.value
}

function waitFor(name: string, result: string): unknown {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + WAIT_MS
  while (!existsSync(result)) {
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for another test file to make ${name}`)
    Atomics.wait(pause, 0, 0, 100)
  }
  const outcome = JSON.parse(readFileSync(result, 'utf8')) as { value: unknown } | { error: string }
  if ('error' in outcome) throw new Error(`${name} failed in another test file: ${outcome.error}`)
  return outcome.value
}
