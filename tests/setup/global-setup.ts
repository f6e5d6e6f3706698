/**
 * Runs once around the whole test run (vitest `globalSetup`): builds dist/ once, before any test file spawns the bin,
 * so files never race to build it; gives the run one folder, removed at the end, for work the files share (the
 * packed tarball, see tests/packed/packed-install.ts) and for every temporary folder the tests make; and fails the
 * run when a test left files in the repository's own folders (tests write into temporary directories only).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuilt, repo } from '../e2e/helpers.ts'
import { SHARED_DIR_VARIABLE } from './shared-dir.ts'

/** what the build and the tools write on purpose: the rest of the repository is the tests' to leave alone */
const OWN_OUTPUT = ['node_modules', 'dist', 'action/dist'].map((dir) => `:(exclude)${dir}`)

/** files git does not track (ignored ones included), outside the build's own output; undefined outside a checkout */
function strayFiles(): Set<string> | undefined {
  const listed = spawnSync('git', ['ls-files', '--others', '--', '.', ...OWN_OUTPUT], {
    cwd: repo,
    encoding: 'utf8',
  })
  if (listed.status !== 0) return undefined
  return new Set(listed.stdout.split('\n').filter((path) => path !== ''))
}

/**
 * The run's folder, in the system's temporary folder. It holds the shared work, and it becomes the temporary folder
 * (`TMPDIR`, which `os.tmpdir()` reads) of every test file and of the processes they start, so all they write goes
 * with it at the end. Left to each file, test folders piled up: a run makes thousands of them, and a day of runs
 * left 45 GB of them on the development machine's disk.
 */
function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-evals-test-run-'))
  const shared = join(dir, 'shared')
  const temporary = join(dir, 'tmp')
  mkdirSync(shared)
  mkdirSync(temporary)
  process.env[SHARED_DIR_VARIABLE] = shared
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = temporary
  return dir
}

export function setup(): () => void {
  ensureBuilt()
  const before = strayFiles()
  // this runs once for the root project and once for each project with files in the run, all before the workers
  // start (they inherit the variables): the first makes the folder and removes it at the end
  const run = process.env[SHARED_DIR_VARIABLE] === undefined ? runDir() : undefined
  return () => {
    if (run !== undefined) rmSync(run, { recursive: true, force: true })
    const after = strayFiles()
    if (before === undefined || after === undefined) return
    const added = [...after].filter((path) => !before.has(path)).slice(0, 10)
    if (added.length > 0)
      throw new Error(
        `tests wrote into the repository: ${added.join(', ')}. Write into a temporary directory (mkdtemp) instead, ` +
          'e.g. `--out <tmp>` for `evals run`.',
      )
  }
}
