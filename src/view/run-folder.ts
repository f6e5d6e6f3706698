import { constants, lstatSync, realpathSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve } from 'node:path'

/** The files of a run folder the view serves; nothing else is ever read from a request's path. */
export const SERVED_FILES: Readonly<Record<string, string>> = {
  'report.html': 'text/html; charset=utf-8',
  'report.json': 'application/json',
  'report.md': 'text/markdown; charset=utf-8',
  'report.junit.xml': 'application/xml',
  'summary.json': 'application/json',
}

/**
 * The folder of run `runId` in reports folder number `root`, or undefined when the request names anything else:
 * an unknown folder number, a name with a separator or dots that climb, or a link leading out of the folder.
 */
export function runFolderOf(roots: readonly string[], root: string, runId: string): string | undefined {
  const base = /^\d+$/.test(root) ? roots[Number(root)] : undefined
  if (base === undefined || !isPlainName(runId)) return undefined
  const dir = resolve(base, runId)
  if (!inside(base, dir)) return undefined
  try {
    // the real paths too: a symbolic link inside a reports folder must not lead out of it
    return inside(realpathSync(base), realpathSync(dir)) ? dir : undefined
  } catch {
    return undefined
  }
}

/**
 * A file of a run folder the view serves, or undefined (see `runFolderOf` and `SERVED_FILES`); a symbolic link is
 * refused even when it points inside the folder (`summary.json → /proc/self/environ`), and so is anything but a
 * regular file (a FIFO would hang the request, a device would never end).
 */
export function runFileOf(
  roots: readonly string[],
  root: string,
  runId: string,
  file: string,
): string | undefined {
  if (!Object.hasOwn(SERVED_FILES, file)) return undefined
  const dir = runFolderOf(roots, root, runId)
  if (dir === undefined) return undefined
  const path = join(dir, file)
  return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true ? path : undefined
}

/** An open regular file and its size. */
export interface OpenedFile {
  handle: FileHandle
  size: number
}

/**
 * Opens `path` for reading without following a symbolic link at its last step (`O_NOFOLLOW`, so a link swapped in
 * after `runFileOf` looked is refused too); undefined unless it is a regular file. The caller closes the handle.
 */
export async function openRegularFile(path: string): Promise<OpenedFile | undefined> {
  // a FIFO would block the open itself: non-blocking, and refused below as not a regular file
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
  const handle = await open(path, flags).catch(() => undefined)
  if (handle === undefined) return undefined
  const stats = await handle.stat().catch(() => undefined)
  if (stats?.isFile() === true) return { handle, size: stats.size }
  await handle.close()
  return undefined
}

/** The text of a regular file (links and special files refused, see `openRegularFile`), or undefined. */
export async function readRegularFile(path: string): Promise<string | undefined> {
  const opened = await openRegularFile(path)
  if (opened === undefined) return undefined
  try {
    return await opened.handle.readFile('utf8')
  } finally {
    await opened.handle.close()
  }
}

function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && !name.includes('%')
}

function inside(base: string, path: string): boolean {
  const rel = relative(base, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}
