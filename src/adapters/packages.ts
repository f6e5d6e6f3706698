import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

interface PackageJson {
  version?: string
  exports?: unknown
  module?: string
  main?: string
}

/** The folder of `name` as a module in `fromFile`'s folder resolves it (node_modules up the tree); undefined if none. */
export function packageDir(name: string, fromFile: string): string | undefined {
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/** The installed version of `name` as `fromFile` sees it; undefined when it cannot be found. */
export function packageVersion(name: string, fromFile: string): string | undefined {
  const dir = packageDir(name, fromFile)
  return dir === undefined ? undefined : readPackage(dir).version
}

/**
 * Imports `name` as `fromFile` would (its ES module entry), so a framework function meets the framework's own
 * classes: the agent the user built and the `run` we call come from the same copy of the package.
 */
export async function importPackageFrom(name: string, fromFile: string): Promise<unknown> {
  const dir = packageDir(name, fromFile)
  if (dir === undefined) return import(name)
  const pkg = readPackage(dir)
  const entry = exportTarget(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js'
  return import(pathToFileURL(join(dir, entry)).href)
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson
}

const conditions = ['import', 'node', 'default']

/** The `.` entry of an `exports` field under the ESM conditions; undefined when it has none. */
function exportTarget(exports: unknown): string | undefined {
  if (typeof exports === 'string') return exports
  if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) return undefined
  const map = exports as Record<string, unknown>
  if ('.' in map) return exportTarget(map['.'])
  for (const condition of conditions) {
    if (condition in map) {
      const target = exportTarget(map[condition])
      if (target !== undefined) return target
    }
  }
  return undefined
}
