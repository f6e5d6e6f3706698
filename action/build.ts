/**
 * Bundles action/main.ts into action/dist/ (`npm run build:action`, or give another directory). The output is committed and CI rebuilds it
 * and fails on any difference, so the build is deterministic: no timestamps, no absolute paths, no source maps.
 *
 * - Everything is bundled: the action runs from a checkout of this repository without node_modules.
 * - Code only reached through `import()` (the provider SDKs, the target kinds) goes to separate chunks that load
 *   on first use. Chunks sit beside index.js, so `new URL('../../package.json', import.meta.url)` in src/ finds
 *   this package's package.json from any of them.
 * - `tsx/esm/api` is replaced by action/tsx-shim.ts: tsx carries a native binary. So does esbuild, which stays
 *   external (only Node without type stripping imports it).
 * - `createRequire(import.meta.url)('x')` (src/ loads a few CommonJS packages lazily and synchronously that way)
 *   becomes `require('x')`, which esbuild bundles.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

const root = dirname(dirname(fileURLToPath(import.meta.url)))

const actionPlugin: Plugin = {
  name: 'evals-action',
  setup(context) {
    context.onResolve({ filter: /^tsx\/esm\/api$/ }, () => ({
      path: join(root, 'action', 'tsx-shim.ts'),
    }))
    // src/util/import-typescript.ts compiles with esbuild only on Node without type stripping; the action runs on node24
    context.onResolve({ filter: /^esbuild$/ }, () => ({ path: 'esbuild', external: true }))
    context.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes('createRequire(import.meta.url)(')) return undefined
      return { contents: text.replaceAll('createRequire(import.meta.url)(', 'require('), loader: 'ts' }
    })
  },
}

/** Builds the action into `outdir` (emptied first); returns each file's size. */
export async function buildAction(outdir = join(root, 'action', 'dist')): Promise<Record<string, number>> {
  rmSync(outdir, { recursive: true, force: true })
  const result = await build({
    absWorkingDir: root,
    entryPoints: { index: 'action/main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: '[name]-[hash]',
    // whitespace and syntax only: identifiers stay, so a crash's stack still names the functions
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
    metafile: true,
    // CommonJS packages inside an ESM bundle call require() for Node built-ins
    banner: {
      js: "import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);",
    },
    plugins: [actionPlugin],
  })
  // the bundle is ESM wherever it is checked out, whatever the package.json above it says
  writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(outdir, 'licenses.txt'), licenses(Object.keys(result.metafile.inputs)))
  return Object.fromEntries(readdirSync(outdir).map((file) => [file, statSync(join(outdir, file)).size]))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = await buildAction(process.argv[2])
  const total = Object.values(sizes).reduce((sum, size) => sum + size, 0)
  process.stdout.write(`action/dist: ${Object.keys(sizes).length} files, ${Math.round(total / 1024)} KiB\n`)
}

/** The license of every bundled package, since `legalComments: 'none'` drops them from the code. */
function licenses(inputs: readonly string[]): string {
  const dirs = new Set<string>()
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (match?.[1]) dirs.add(match[1])
  }
  return [...dirs]
    .map((dir) => {
      const { name, version, license } = JSON.parse(
        readFileSync(join(root, dir, 'package.json'), 'utf8'),
      ) as {
        name: string
        version: string
        license?: string
      }
      const file = readdirSync(join(root, dir)).find((entry) => /^licen[cs]e/i.test(entry))
      const text = file === undefined ? '' : `\n${readFileSync(join(root, dir, file), 'utf8').trim()}\n`
      return `${name}@${version} (${license ?? 'unknown'})\n${text}`
    })
    .sort()
    .join('\n---\n\n')
}
