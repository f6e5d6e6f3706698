import { readFile, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { lock } from 'proper-lockfile'
import { ConfigError } from '../../errors.ts'
import { makeFolder } from '../../util/make-folder.ts'

/** how long a lock its holder stopped refreshing (a run killed on another machine) keeps others out */
const STALE_MS = 15_000

/**
 * Holds a run's folder for this run until the returned release is called: a second `evals run --resume` of the
 * same run, in this process or another, is refused instead of appending a second copy of every missing row. The
 * lock is the folder `<run>/.lock` (`proper-lockfile`), refreshed while the run lives, and `<run>/.lock.json` names
 * its process; one
 * left by a killed process of this machine is taken over at once, one from elsewhere after 15 s.
 */
export async function lockRunFolder(dir: string): Promise<() => Promise<void>> {
  // not Node's recursive mkdir: it never settles under /proc
  await makeFolder(dir)
  const lockDir = join(dir, '.lock')
  const ownerFile = join(dir, '.lock.json')
  try {
    return await acquire(dir, lockDir, ownerFile)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ELOCKED') throw error
    if (!(await heldByDeadProcess(ownerFile))) {
      throw new ConfigError(
        `Another process is running ${dir} (its lock \`${lockDir}\` is held). Wait for it to end; if it was killed on another machine, try again in ${String(STALE_MS / 1000)} s.`,
      )
    }
    await rm(lockDir, { recursive: true, force: true })
    return acquire(dir, lockDir, ownerFile)
  }
}

async function acquire(dir: string, lockDir: string, ownerFile: string): Promise<() => Promise<void>> {
  const release = await lock(dir, {
    lockfilePath: lockDir,
    realpath: false,
    stale: STALE_MS,
    // losing the lock mid-run (the folder removed, a clock jump) ends nothing: the run's own writes still land
    onCompromised: () => undefined,
  })
  // beside the lock, not in it: a file added to the lock folder changes its mtime, which proper-lockfile reads as
  // another process taking the lock over
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() }))
  return async () => {
    await rm(ownerFile, { force: true })
    try {
      await release()
    } catch (error) {
      // compromised meanwhile (see onCompromised): nothing is left to release
      if ((error as { code?: unknown }).code !== 'ERELEASED') throw error
    }
  }
}

/** whether the lock names a process of this machine that no longer exists (killed with -9, or crashed) */
async function heldByDeadProcess(ownerFile: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown }
  try {
    owner = JSON.parse(await readFile(ownerFile, 'utf8')) as typeof owner
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
