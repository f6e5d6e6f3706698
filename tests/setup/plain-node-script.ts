/**
 * A TypeScript fixture that a test runs in a process of its own, compiled once per test run into one ES module that
 * plain `node` runs. Under tsx's loader hooks each module a child loads costs more (about 1 CPU-second for one that
 * imports `src/index.ts`, plus the esbuild service tsx starts); compiled, the child loads what a user's process loads.
 *
 * - Relative imports of the fixture's own helpers are bundled in.
 * - `src/index.ts` becomes the built package (`dist/bundle/index.js`, which the global setup builds): one copy of
 *   the package, as in a user's process. Any other module of `src/` is refused: bundling it would copy the engine
 *   into the script, where its `import.meta.url` lookups point at the wrong folder.
 * - Packages stay imports, resolved from this checkout's node_modules (linked beside the script).
 */
import { createHash } from 'node:crypto'
import { symlinkSync } from 'node:fs'
import { basename, join, sep } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { repo } from '../e2e/helpers.ts'
import { oncePerRunAsync } from './shared-dir.ts'

const source = join(repo, 'src') + sep
const builtPackage = join(repo, 'dist', 'bundle', 'index.js')

const builtPackageForSource: Plugin = {
  name: 'built-package-for-src',
  setup(context) {
    context.onResolve({ filter: /\/src\// }, (args) => {
      const path = join(args.resolveDir, args.path)
      if (!path.startsWith(source)) return undefined
      if (path === join(source, 'index.ts')) return { path: builtPackage, external: true }
      return {
        errors: [{ text: `${args.importer} imports ${args.path}: import it from src/index.ts instead` }],
      }
    })
  },
}

/** The path of `fixture` (a .ts file) compiled for plain `node`, made once per test run. */
export function plainNodeScript(fixture: string): Promise<string> {
  const name = basename(fixture).replace(/\.ts$/, '')
  const key = createHash('sha256').update(fixture).digest('hex').slice(0, 8)
  return oncePerRunAsync(`plain-node-${name}-${key}`, async (dir) => {
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir')
    const outfile = join(dir, `${name}.mjs`)
    await build({
      entryPoints: [fixture],
      outfile,
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      logLevel: 'silent',
      plugins: [builtPackageForSource],
    })
    return outfile
  })
}
