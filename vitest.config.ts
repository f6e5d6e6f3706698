import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * Five projects, each test file sorted into one by what it does, so a new test lands in the right one without
 * editing this file:
 *
 * - `e2e`: spawns processes — the built bin, npm, tsc, Chromium, the Action bundle. Most of its time is the
 *   children's, and vitest starts the slowest files first. Its files share a module graph per worker, as `unit`
 *   does, except those that would go to `isolated` or `modules` if they spawned nothing: `e2e-isolated`.
 * - `isolated`: in-process tests that replace modules or process-wide globals (`vi.mock`, fake timers, stubbed
 *   globals, `process.chdir`); each file gets a fresh module graph.
 * - `modules`: in-process tests that set environment variables or use the OpenAI Agents SDK (its default client is
 *   process-wide), themselves or through a helper. Each file gets a fresh worker thread: Node's loader keeps a
 *   module it loaded for the thread's life, so in a shared thread a fixture loaded by one file (with the mock
 *   server's URL it read from the environment) outlived that file and failed the next one that loaded it.
 * - `unit`: everything else, without isolation: the files of a worker share one module graph, so `src/` (the SDKs,
 *   zod schemas, the engine) is imported once per worker instead of once per file, which was most of these files'
 *   CPU. A file here must leave no state behind: restore what it spies on, unregister what it registers. Files that
 *   load a user's module from disk (agent, function and `custom:` targets, fixtures) are here too when they set no
 *   environment: a module kept for the thread's life then reads nothing another file changed (the 45 such files
 *   passed in one shared thread in several shuffled orders, at half the CPU of a thread each; the 35 such `e2e`
 *   files passed sharing graphs in shuffled file order, 11 CPU-s less).
 *
 * `npm test` runs all five at once; `npx vitest --project unit` is the quick loop.
 */
/** a module that starts processes or a browser: a file importing one, directly or through a helper, is `e2e` */
const SPAWNS = /from 'node:child_process'|from 'playwright-core'/
const REPLACES_GLOBALS = /\bvi\.(?:mock|doMock|useFakeTimers|stubGlobal|stubEnv)\(|process\.chdir\(/
/** what changes the process for the files after it: an assignment to `process.env`, the Agents SDK's client */
const SETS_PROCESS_STATE = /process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|@openai\/agents/

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    // framework versions that declare Node >= 22 have their own install, run by `npm run test:frameworks`
    if (entry.isDirectory())
      return ['fixtures', 'frameworks-node22'].includes(entry.name) ? [] : testFiles(path)
    return entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const matching = new Map<RegExp, Map<string, boolean>>()
/** whether the test file or helper at `path` matches `pattern`, or imports a helper that does */
function mentions(path: string, pattern: RegExp): boolean {
  const known = matching.get(pattern) ?? new Map<string, boolean>()
  matching.set(pattern, known)
  const seen = known.get(path)
  if (seen !== undefined) return seen
  known.set(path, false)
  const text = readFileSync(path, 'utf8')
  const helpers = [...text.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)]
    .map((match) => resolve(dirname(path), match[1] ?? ''))
    // a module a test writes at run time is not there yet
    .filter((helper) => helper.startsWith(join(root, 'tests')) && existsSync(helper))
  const result = pattern.test(withoutImports(text)) || helpers.some((helper) => mentions(helper, pattern))
  known.set(path, result)
  return result
}

/** the paths of a file's own imports are no sign (`../../src/cases/load.ts`) */
const withoutImports = (text: string): string => text.replaceAll(/\bfrom '\.{1,2}\/[^']*'/g, '')

const root = import.meta.dirname
const files = testFiles(join(root, 'tests'))
const e2e = files.filter((path) => mentions(path, SPAWNS))
const isolated = files.filter(
  (path) => !e2e.includes(path) && REPLACES_GLOBALS.test(readFileSync(path, 'utf8')),
)
const setsProcessState = (path: string): boolean => mentions(path, SETS_PROCESS_STATE)
const modules = files.filter(
  (path) => !e2e.includes(path) && !isolated.includes(path) && setsProcessState(path),
)
/** the e2e files that must not share a worker's module graph, for the reasons of `isolated` and `modules` */
const e2eIsolated = e2e.filter(
  (path) => REPLACES_GLOBALS.test(readFileSync(path, 'utf8')) || setsProcessState(path),
)
const relativeTo = (paths: string[]): string[] => paths.map((path) => relative(root, path))

export default defineConfig({
  test: {
    // a file's first test may compile the user modules it loads on Node 20 (the agent fixtures and the engine they
    // import: a few seconds cold, the first time in a run; more on a busy 2-core CI machine)
    testTimeout: 60_000,
    // vitest's default leaves one core to itself (cores - 1): on a 2-core machine that is one worker for the whole
    // suite. One worker per core, not more: the e2e files looked wait-bound only because the esbuild processes their
    // children start escape the run's CPU accounting; a third worker measured no faster (e2e-heavy subset, 2 cores)
    maxWorkers: availableParallelism(),
    // builds dist/ once for every file that spawns the bin, and fails the run if a test wrote into the repository
    globalSetup: ['tests/setup/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // worker threads start faster than forked processes; one module graph per worker (see above)
          pool: 'threads',
          isolate: false,
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/frameworks-node22/**', ...relativeTo([...e2e, ...isolated, ...modules])],
        },
      },
      {
        extends: true,
        // a fresh thread per file: its own module graph and Node's loader cache
        test: { name: 'modules', pool: 'threads', include: relativeTo(modules) },
      },
      {
        extends: true,
        test: { name: 'isolated', include: isolated.length > 0 ? relativeTo(isolated) : ['no-such-file'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          isolate: false,
          include: relativeTo(e2e.filter((path) => !e2eIsolated.includes(path))),
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-isolated',
          include: relativeTo(e2eIsolated),
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
