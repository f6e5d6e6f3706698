import { extname, isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { didYouMean } from '../util/did-you-mean.ts'
import { importTypeScript, TYPESCRIPT_EXTENSIONS } from '../util/import-typescript.ts'

/** A `path#export` reference to a function in a JS or TS module. */
export interface ModuleRef {
  /** absolute path for relative and absolute references; a package specifier otherwise */
  module: string
  /** @default 'default' */
  exportName: string
}

/** What a `path#export` reference looks like: a path, then optionally `#` and an identifier. */
export const moduleRefPattern = /^[^#]+(#[A-Za-z_$][\w$]*)?$/

/** Splits `./checks.ts#isPolite` and resolves the path against `baseDir`. */
export function parseModuleRef(ref: string, baseDir: string): ModuleRef {
  const hash = ref.lastIndexOf('#')
  const path = hash === -1 ? ref : ref.slice(0, hash)
  const exportName = hash === -1 ? 'default' : ref.slice(hash + 1) || 'default'
  const isPath = path.startsWith('.') || isAbsolute(path)
  return { module: isPath ? resolve(baseDir, path) : path, exportName }
}

export function isFileRef(ref: ModuleRef): boolean {
  return isAbsolute(ref.module)
}

const loaded = new Map<string, Promise<Record<string, unknown>>>()

/**
 * Imports a module once per process. TypeScript loads without a build step (see `importTypeScript`); JavaScript
 * and packages load natively.
 */
export function importModule(module: string): Promise<Record<string, unknown>> {
  let promise = loaded.get(module)
  if (!promise) {
    const specifier = isAbsolute(module) ? pathToFileURL(module).href : module
    promise =
      isAbsolute(module) && TYPESCRIPT_EXTENSIONS.has(extname(module))
        ? importTypeScript(module)
        : (import(specifier) as Promise<Record<string, unknown>>)
    loaded.set(module, promise)
  }
  return promise
}

/** The referenced export, or a message saying why it is not a function. */
export async function importFunction(ref: ModuleRef): Promise<((...args: never[]) => unknown) | string> {
  let namespace: Record<string, unknown>
  try {
    namespace = await importModule(ref.module)
  } catch (error) {
    return `cannot import ${ref.module}: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`
  }
  const value = namespace[ref.exportName]
  if (typeof value === 'function') return value as (...args: never[]) => unknown
  const exported = Object.keys(namespace).filter((key) => typeof namespace[key] === 'function')
  const suggestion = didYouMean(ref.exportName, exported)
  const known = suggestion
    ? `did you mean \`${suggestion}\`?`
    : exported.length === 0
      ? 'it exports no functions'
      : `it exports ${exported.map((k) => `\`${k}\``).join(', ')}`
  return `${ref.module} has no function export \`${ref.exportName}\`; ${known}`
}
