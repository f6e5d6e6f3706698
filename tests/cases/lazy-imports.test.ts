import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, repo, runShell } from '../e2e/helpers.ts'

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

/** The modules that loading `suite` from a JSON file and compiling its checks, as the runner does, loads. */
async function modulesLoadedFor(suite: Record<string, unknown>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-lazy-'))
  writeFileSync(join(dir, 'hook.mjs'), HOOK)
  writeFileSync(join(dir, 'echo.mjs'), 'export const echo = (input) => input\n')
  writeFileSync(join(dir, 'checks.mjs'), 'export const ok = (transcript) => transcript.output.length > 0\n')
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(suite))
  const dist = pathToFileURL(join(repo, 'dist')).href
  const script = `
    const { loadSuites } = await import('${dist}/cases/load.js')
    const { loadEvaluatorCompiler, needsOf } = await import('${dist}/cases/compile-checks.js')
    const cases = (await loadSuites(['cases.json'])).flatMap((suite) => [...suite.cases])
    const compile = await loadEvaluatorCompiler(needsOf(cases))
    for (const caseDef of cases) compile(caseDef, { baseDir: process.cwd() })`
  const run = await runShell(
    process.execPath,
    ['--import', pathToFileURL(join(dir, 'hook.mjs')).href, '--input-type=module', '-e', script],
    { cwd: dir },
  )
  expect(run.stderr.split('\n').filter((line) => !line.startsWith('MOD '))).toEqual([''])
  return run.stderr.split('\n').filter((line) => line.startsWith('MOD '))
}

// engine/structured.js, the JSON extractor `json` and `parsed` share with the engine, imports nothing at run time;
// the case-file schema reads the judges' option schemas and specs, but not the judge that calls a model
const heavy = /dist\/(evaluators\/llm-judge(-compile|-call)?\.js|engine\/(?!structured\.js)|providers\/)/

test('a JSON suite of `expect:` shorthands and `assert:` items loads and compiles without the LLM judge', async () => {
  const loaded = await modulesLoadedFor({
    suite: 'plain',
    target: { function: './echo.mjs#echo' },
    defaults: { expect: { min_length: 1 }, tags: ['smoke'] },
    cases: [
      {
        id: 'a',
        input: 'hello',
        expect: { contains: 'hello', output_regex: '^h', custom: './checks.mjs#ok' },
      },
      { id: 'b', input: 'bye', expect: { not_contains: 'hello' }, assert: [{ kind: 'json', not: true }] },
    ],
  })
  expect(loaded.some((module) => module.endsWith('dist/cases/compile-checks.js'))).toBe(true)
  expect(loaded.filter((module) => heavy.test(module))).toEqual([])
})

test('`judge:` items load the LLM judge', async () => {
  const loaded = await modulesLoadedFor({
    suite: 'judged',
    target: { function: './echo.mjs#echo' },
    cases: [
      { id: 'a', input: 'hello', assert: [{ kind: 'json', not: true }], judge: [{ rubric: 'Polite' }] },
    ],
  })
  expect(loaded.some((module) => module.endsWith('dist/cases/compile-judges.js'))).toBe(true)
})
