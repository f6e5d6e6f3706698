import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * `mkdir -p`, one level at a time. Node's own `{ recursive: true }` never settles under a folder whose `mkdir` keeps
 * answering ENOENT (`--out /proc/x` hung the run); this one fails with that error, which the CLI prints in one line.
 */
export async function makeFolder(path: string): Promise<void> {
  const missing: string[] = []
  let at = path
  while ((await stat(at).catch(() => undefined)) === undefined && dirname(at) !== at) {
    missing.push(at)
    at = dirname(at)
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error
    })
  }
}
