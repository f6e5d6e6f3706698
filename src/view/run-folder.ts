import { realpathSync } from 'node:fs'
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

/** A file of a run folder the view serves, or undefined (see `runFolderOf` and `SERVED_FILES`). */
export function runFileOf(
  roots: readonly string[],
  root: string,
  runId: string,
  file: string,
): string | undefined {
  if (!Object.hasOwn(SERVED_FILES, file)) return undefined
  const dir = runFolderOf(roots, root, runId)
  return dir === undefined ? undefined : join(dir, file)
}

function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && !name.includes('%')
}

function inside(base: string, path: string): boolean {
  const rel = relative(base, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}
