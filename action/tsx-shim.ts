import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * Stands in for `tsx/esm/api` in the bundle: tsx carries a native esbuild binary, so it cannot be bundled. A
 * TypeScript case module (agent, function target, custom check) loads through the workspace's own tsx when it
 * has one (tsconfig paths, extensionless imports), else through Node's built-in type stripping (Node ≥ 22.18,
 * so always on the action's node24).
 */
export async function tsImport(specifier: string, parentURL: string): Promise<unknown> {
  const tsx = await workspaceTsx()
  if (tsx) return tsx.tsImport(specifier, parentURL)
  if ((process.features as { typescript?: unknown }).typescript) return import(specifier)
  throw new Error(
    `cannot load TypeScript on Node ${process.version}: add tsx to the workspace (\`npm i -D tsx\`) or use Node ≥ 22.18.`,
  )
}

interface TsxApi {
  tsImport(specifier: string, parentURL: string): Promise<unknown>
}

async function workspaceTsx(): Promise<TsxApi | undefined> {
  let manifest: string
  try {
    manifest = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/package.json')
  } catch {
    return undefined
  }
  // the ESM entry: tsx's CommonJS build of this API cannot import its ESM half when loaded from ESM
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | undefined>
  }
  const entry = exports['./esm/api']?.import?.default
  if (entry === undefined) return undefined
  return (await import(pathToFileURL(join(dirname(manifest), entry)).href)) as TsxApi
}
