import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, expect, test } from 'vitest'
import { bin, ensureBuilt, repo, runShell } from '../e2e/helpers.ts'

// a loader hook that names every module the process loads, one `MOD <url>` line on stderr
const HOOK = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write('MOD ' + url + '\\\\n')
  return next(url, context)
}\`))
`

beforeAll(() => {
  ensureBuilt()
}, 120_000)

/** The `file:` URLs of every module `evals <args>` loads when run in `cwd` (the hook is written to `dir`). */
async function moduleUrls(dir: string, args: readonly string[], cwd = dir): Promise<string[]> {
  const hook = join(dir, 'hook.mjs')
  writeFileSync(hook, HOOK)
  const run = await runShell(process.execPath, ['--import', pathToFileURL(hook).href, bin, ...args], { cwd })
  expect(run.code).toBe(0)
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('MOD '))
    .map((line) => line.slice('MOD '.length))
}

/**
 * The dist/ modules, relative to dist/, that `evals <args>` loads in `dir`: the bin loads the CLI bundle, whose
 * files each hold the modules dist/bundle/modules.json lists.
 */
async function loadedModules(dir: string, args: readonly string[]): Promise<string[]> {
  const urls = await moduleUrls(dir, args)
  const bundle = `${pathToFileURL(join(repo, 'dist', 'bundle')).href}/`
  const files = urls.filter((url) => url.startsWith(bundle)).map((url) => url.slice(bundle.length))
  // nothing outside the bundle, except the packages it leaves out
  const dist = `${pathToFileURL(join(repo, 'dist')).href}/`
  expect(urls.filter((url) => url.startsWith(dist) && !url.startsWith(bundle))).toEqual([])
  expect(files).toContain('main.js')
  const modules = JSON.parse(readFileSync(join(repo, 'dist', 'bundle', 'modules.json'), 'utf8')) as Record<
    string,
    string[]
  >
  return files.flatMap((file) => modules[file] ?? [])
}

test('a console and JSON run of deterministic checks loads no renderer, report or baseline schema, or model client', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-startup-'))
  writeFileSync(join(dir, 'echo.mjs'), 'export const echo = (input) => input\n')
  writeFileSync(
    join(dir, 'cases.json'),
    JSON.stringify({
      suite: 'startup',
      target: { function: './echo.mjs#echo' },
      cases: [{ id: 'greet', input: 'hello', expect: { contains: 'hello', output_regex: '^h' } }],
    }),
  )

  const loaded = await loadedModules(dir, ['run', 'cases.json', '--reporter', 'console,json'])
  const traced = await loadedModules(dir, ['run', 'cases.json', '--reporter', 'console,json', '--trace'])

  // trace capture, and the OpenTelemetry SDK under it, load only when a case captures its spans
  expect(loaded.filter((module) => /^traces\/|@opentelemetry/.test(module))).toEqual([])
  expect(traced).toContain('traces/hub.js')
  // the SDK comes bundled into one chunk (its 80 files took 0.3 s to load); only the API is the user's package
  const tracedUrls = await moduleUrls(dir, ['run', 'cases.json', '--reporter', 'console,json', '--trace'])
  const sdkPackages = tracedUrls.filter((url) =>
    /\/node_modules\/@opentelemetry\/(sdk-trace|resources|core|semantic-conventions)\//.test(url),
  )
  expect(sdkPackages).toEqual([])
  expect(traced.filter((module) => module.includes('@opentelemetry/sdk-trace/')).length).toBeGreaterThan(0)
  expect(loaded).toContain('cli/run-command.js')
  expect(
    loaded.filter((module) =>
      /^(reporters\/(junit|markdown|html\/)|report\/(schema|case-schema|comparison-schema)\.|baselines\/schema\.|replay\/cassette\.|providers\/(registry|openai|anthropic)\.|engine\/model-call\.)/.test(
        module,
      ),
    ),
  ).toEqual([])
})

test("the quickstart's agent gets `agent-evals` from the CLI's own bundle, and its TypeScript compiles once", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-startup-'))
  const args = ['run', 'cases/quickstart.yaml', '--out', join(dir, 'reports')]
  await moduleUrls(dir, args, repo) // compiles the agent, if no earlier run did

  const urls = await moduleUrls(dir, args, repo)

  const own = urls
    .filter((url) => url.startsWith(`${pathToFileURL(repo).href}/`) && !url.includes('/node_modules/'))
    .map((url) => url.slice(pathToFileURL(repo).href.length + 1))
  // the package's own modules all come from the bundle (the agent's compiled output lives in the temp directory)
  expect(own.filter((path) => !path.startsWith('dist/bundle/'))).toEqual(['bin/evals.js'])
  expect(own).toContain('dist/bundle/index.js')
  // the compiled TypeScript is reused: neither tsx nor esbuild loads
  expect(urls.filter((url) => /\/node_modules\/(tsx|esbuild)\//.test(url))).toEqual([])
  // with no tracer provider registered, the engine's agent loads no OpenTelemetry package
  expect(urls.filter((url) => url.includes('/node_modules/@opentelemetry/'))).toEqual([])
})
