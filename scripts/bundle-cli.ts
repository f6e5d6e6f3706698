/**
 * Bundles the CLI and the public entry points, from the compiled dist/ modules, into dist/bundle/ (part of
 * `npm run build`): `bin/evals.js` loads `main.js`, and package.json `exports` point `agent-evals`,
 * `agent-evals/testing` and `agent-evals/vitest` at `index.js`, `testing.js` and `vitest.js`. One build with all
 * four entries gives ONE copy of the package per process: a user's agent that imports `agent-evals` while the CLI
 * runs it gets the very chunks the CLI already loaded, so its classes, registries and module state are the CLI's
 * (two builds, or the CLI bundle beside the unbundled dist/index.js, would be two copies).
 *
 * One module instead of ninety on the path every command takes saves ~20 ms of each start, most of it the ESM
 * loader's per-file reads. Code reached only through `import()` stays in chunks of its own that load on
 * first use, so a run still loads no renderer, schema or model client it does not need. Packages are not bundled,
 * except two made of many small files (`BUNDLED`), whose ES-module builds are:
 * - zod, 95 files on every command's path (one chunk: 11% less CPU for `evals run cases/function.yaml` on Node 24).
 *   A user's schemas come from the user's zod; zod 4 shares its registry through `globalThis` and checks
 *   `instanceof` by traits, so ours reads theirs (tests/tools run the engine on schemas of the package's zod);
 * - the OpenTelemetry SDK that trace capture loads, 80 files, 0.3 s on a busy 2-core machine.
 *   `@opentelemetry/api` stays a package: the tracer registry is the user's, shared through it.
 *
 * dist/bundle/modules.json lists the dist/ modules in each file, for tests that check what a command loads.
 * Chunks sit at the same depth as dist/cli/, so `new URL('../../package.json', import.meta.url)` still finds it.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** packages bundled into the chunk that loads them; every other package is imported from node_modules */
const BUNDLED = /^(?:@opentelemetry\/(?:sdk-trace|resources|core|semantic-conventions)|zod)(?:\/|$)/

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const outdir = join(root, 'dist', 'bundle')

const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'dist/cli/main.js',
    index: 'dist/index.js',
    testing: 'dist/testing/index.js',
    vitest: 'dist/vitest/index.js',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ES-module builds first, so a bundled package's own imports of other packages stay imports
  mainFields: ['module', 'main'],
  plugins: [
    {
      name: 'packages-external-but-bundled',
      setup: (build) => {
        build.onResolve({ filter: /^[^./]/ }, ({ path }) =>
          BUNDLED.test(path) ? undefined : { path, external: true },
        )
      },
    },
  ],
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
// the bin's import is typed by the compiled module's declarations (package.json `exports` name the others' types)
writeFileSync(join(outdir, 'main.d.ts'), "export { main } from '../cli/main.js'\n")
