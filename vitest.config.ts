import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * Three projects, each test file sorted into one by what it does, so a new test lands in the right one without
 * editing this file:
 *
 * - `e2e`: spawns processes — the built bin, npm, tsc, Chromium, the Action bundle. Isolated as usual; most of its
 *   time is the children's, and vitest starts the slowest files first.
 * - `isolated`: in-process tests that replace modules or process-wide globals (`vi.mock`, fake timers, stubbed
 *   globals, `process.chdir`); each file gets a fresh module graph.
 * - `unit`: everything else. Isolated too: run without isolation (one module graph per worker), the files that load
 *   a user's TypeScript module from disk (agent and function targets) failed in a clean clone, depending on which
 *   files shared a worker — a module Node's loader compiled for one file outlived that file's environment.
 *
 * `npm test` runs all three at once; `npx vitest --project unit` is the quick loop.
 */
/** a module that starts processes or a browser: a file importing one, directly or through a helper, is `e2e` */
const SPAWNS = /from 'node:child_process'|from 'playwright-core'/
const REPLACES_GLOBALS = /\bvi\.(?:mock|doMock|useFakeTimers|stubGlobal|stubEnv)\(|process\.chdir\(/

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    // framework versions that declare Node >= 22 have their own install, run by `npm run test:frameworks`
    if (entry.isDirectory())
      return ['fixtures', 'frameworks-node22'].includes(entry.name) ? [] : testFiles(path)
    return entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const spawning = new Map<string, boolean>()
/** whether the test file or helper at `path` imports a module that spawns, following its relative imports */
function spawns(path: string): boolean {
  const known = spawning.get(path)
  if (known !== undefined) return known
  spawning.set(path, false)
  const text = readFileSync(path, 'utf8')
  const helpers = [...text.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)]
    .map((match) => resolve(dirname(path), match[1] ?? ''))
    .filter((helper) => helper.startsWith(join(root, 'tests')))
  const result = SPAWNS.test(text) || helpers.some(spawns)
  spawning.set(path, result)
  return result
}

const root = import.meta.dirname
const files = testFiles(join(root, 'tests'))
const e2e = files.filter(spawns)
const isolated = files.filter(
  (path) => !e2e.includes(path) && REPLACES_GLOBALS.test(readFileSync(path, 'utf8')),
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
          // worker threads start faster than forked processes and each file still gets its own thread, so its own
          // module graph and Node's loader cache (unlike `isolate: false`, see above)
          pool: 'threads',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/frameworks-node22/**', ...relativeTo([...e2e, ...isolated])],
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: isolated.length > 0 ? relativeTo(isolated) : ['no-such-file'] },
      },
      {
        extends: true,
        test: { name: 'e2e', include: relativeTo(e2e), testTimeout: 60_000, hookTimeout: 120_000 },
      },
    ],
  },
})
