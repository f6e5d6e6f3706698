/**
 * Bundles the CLI, from the compiled dist/cli/main.js, into dist/bundle/ (part of `npm run build`): `bin/evals.js`
 * loads it. One module instead of ninety on the path every command takes saves ~20 ms of each start, most of it
 * the ESM loader's per-file reads. Code reached only through `import()` stays in chunks of its own that load on
 * first use, so a run still loads no renderer, schema or model client it does not need. Packages are not bundled.
 *
 * dist/bundle/modules.json lists the dist/ modules in each file, for tests that check what a command loads.
 * Chunks sit at the same depth as dist/cli/, so `new URL('../../package.json', import.meta.url)` still finds it.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const outdir = join(root, 'dist', 'bundle')

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  metafile: true,
})

const modules: Record<string, string[]> = {}
for (const [output, { inputs }] of Object.entries(result.metafile.outputs)) {
  modules[relative(outdir, join(root, output))] = Object.keys(inputs)
    .map((input) => relative(join(root, 'dist'), join(root, input)))
    .sort()
}
writeFileSync(join(outdir, 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`)
// the bin's import is typed by the compiled module's declarations
writeFileSync(join(outdir, 'main.d.ts'), "export { main } from '../cli/main.js'\n")
