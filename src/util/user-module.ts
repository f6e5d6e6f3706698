import { existsSync } from 'node:fs'
import { extname, isAbsolute, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError, toError } from '../errors.ts'
import { importTypeScript, TYPESCRIPT_EXTENSIONS } from './import-typescript.ts'

const cache = new Map<string, Promise<Record<string, unknown>>>()

/**
 * Imports a user's module relative to `baseDir`. TypeScript files load without a build step (see
 * `importTypeScript`); plain JavaScript uses the native loader. `label` names the config entry in error messages.
 */
export function importUserModule(
  file: string,
  baseDir: string,
  label: string,
): Promise<Record<string, unknown>> {
  const path = resolve(baseDir, file)
  let loaded = cache.get(path)
  if (!loaded) {
    loaded = load(path, file, label)
    cache.set(path, loaded)
  }
  return loaded
}

async function load(path: string, file: string, label: string): Promise<Record<string, unknown>> {
  if (!existsSync(path)) {
    throw new ConfigError(
      `${label}: cannot find \`${file}\` (looked for ${path}). Check the path; it is relative to the case file.`,
    )
  }
  try {
    if (TYPESCRIPT_EXTENSIONS.has(extname(path))) return await importTypeScript(path)
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>
  } catch (error) {
    const cause = toError(error)
    throw new ConfigError(`${label}: \`${displayPath(file)}\` failed to load: ${cause.message}`, { cause })
  }
}

/** The names a module exports, for "it exports … instead" hints. */
export function exportNames(module: Record<string, unknown>): string {
  const names = Object.keys(module).filter((name) => name !== '__esModule' && name !== 'module.exports')
  return names.length === 0 ? 'nothing' : names.map((name) => `\`${name}\``).join(', ')
}

/** A path as the user should read it: relative to the working directory when it was made absolute. */
export function displayPath(file: string): string {
  return isAbsolute(file) ? relative(process.cwd(), file) || file : file
}
