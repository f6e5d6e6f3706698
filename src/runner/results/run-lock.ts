import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { lock } from 'proper-lockfile'
import { ConfigError } from '../../errors.ts'

/** how long a lock its holder stopped refreshing (a killed run) keeps others out */
const STALE_MS = 15_000

/**
 * Holds a run's folder for this run until the returned release is called: a second `evals run --resume` of the
 * same run, in this process or another, is refused instead of appending a second copy of every missing row. The
 * lock is `<run>/.lock`, refreshed while the run lives; one left by a killed run is taken over after 15 s.
 */
export async function lockRunFolder(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true })
  try {
    return await lock(dir, {
      lockfilePath: join(dir, '.lock'),
      realpath: false,
      stale: STALE_MS,
      // losing the lock mid-run (the folder removed, a clock jump) ends nothing: the run's own writes still land
      onCompromised: () => undefined,
    })
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ELOCKED') throw error
    throw new ConfigError(
      `Another process is running ${dir} (its lock \`${join(dir, '.lock')}\` is held). Wait for it to end; if it was killed, try again in ${String(STALE_MS / 1000)} s.`,
    )
  }
}
