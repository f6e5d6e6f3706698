import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { lock } from 'proper-lockfile'
import { ConfigError } from '../../errors.ts'

/** how long a lock its holder stopped refreshing (a run killed on another machine) keeps others out */
const STALE_MS = 15_000

/**
 * Holds a run's folder for this run until the returned release is called: a second `evals run --resume` of the
 * same run, in this process or another, is refused instead of appending a second copy of every missing row. The
 * lock is the folder `<run>/.lock` (`proper-lockfile`), refreshed while the run lives and naming its process; one
 * left by a killed process of this machine is taken over at once, one from elsewhere after 15 s.
 */
export async function lockRunFolder(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true })
  const lockDir = join(dir, '.lock')
  try {
    return await acquire(dir, lockDir)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ELOCKED') throw error
    if (!(await heldByDeadProcess(lockDir))) {
      throw new ConfigError(
        `Another process is running ${dir} (its lock \`${lockDir}\` is held). Wait for it to end; if it was killed on another machine, try again in ${String(STALE_MS / 1000)} s.`,
      )
    }
    await rm(lockDir, { recursive: true, force: true })
    return acquire(dir, lockDir)
  }
}

async function acquire(dir: string, lockDir: string): Promise<() => Promise<void>> {
  const release = await lock(dir, {
    lockfilePath: lockDir,
    realpath: false,
    stale: STALE_MS,
    // losing the lock mid-run (the folder removed, a clock jump) ends nothing: the run's own writes still land
    onCompromised: () => undefined,
  })
  const owner = join(lockDir, 'owner.json')
  await writeFile(owner, JSON.stringify({ pid: process.pid, host: hostname() }))
  return async () => {
    // proper-lockfile removes an empty folder
    await rm(owner, { force: true })
    await release()
  }
}

/** whether the lock names a process of this machine that no longer exists (killed with -9, or crashed) */
async function heldByDeadProcess(lockDir: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown }
  try {
    owner = JSON.parse(await readFile(join(lockDir, 'owner.json'), 'utf8')) as typeof owner
  } catch {
    return false
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number') return false
  try {
    process.kill(owner.pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
