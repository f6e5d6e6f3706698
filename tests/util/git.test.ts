import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { gitInfo, headFromFiles } from '../../src/util/git.ts'

// run from a git hook, GIT_DIR and the like would point every git command here at the outer repository
const outerGitVariables = Object.keys(process.env).filter((name) => name.startsWith('GIT_'))
// no global or system config: a `commit.gpgsign` there must not break the commits made here
const noConfig = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }

const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_'))),
  ...noConfig,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
}

// the code under test reads GIT_DIR and starts git with this process's environment
beforeEach(() => {
  for (const name of outerGitVariables) vi.stubEnv(name, undefined)
  for (const [name, value] of Object.entries(noConfig)) vi.stubEnv(name, value)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function tempFolder(prefix: string): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  folders.push(folder)
  return folder
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env }).trim()
}

/**
 * A repository with two commits on `feature/x`, whose first commit `main` also points at; in `repo` of a temporary
 * folder, so that a linked worktree can go beside it, in `root`.
 */
function repository(): { root: string; dir: string; first: string; second: string } {
  const root = tempFolder('evals-git-')
  const dir = join(root, 'repo')
  mkdirSync(dir)
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'one')
  const first = git(dir, 'rev-parse', 'HEAD')
  git(dir, 'switch', '-q', '-c', 'feature/x')
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'two')
  return { root, dir, first, second: git(dir, 'rev-parse', 'HEAD') }
}

/** What `git` itself says, in GitInfo's shape. */
function fromGit(dir: string): { commit: string; branch?: string } {
  const [commit = '', branch = ''] = git(dir, 'rev-parse', 'HEAD', '--abbrev-ref', 'HEAD').split('\n')
  return branch === 'HEAD' ? { commit } : { commit, branch }
}

/** A PATH where `git` cannot be found: a lookup that answers under it did not start `git`. */
function hideGit(): void {
  vi.stubEnv('PATH', tempFolder('evals-no-path-'))
}

describe('the commit and branch read from the files are what git says', () => {
  test('a branch with a loose ref, asked from a subdirectory', () => {
    const { dir, second } = repository()
    mkdirSync(join(dir, 'cases'))
    expect(headFromFiles(join(dir, 'cases'))).toEqual({ commit: second, branch: 'feature/x' })
    expect(headFromFiles(dir)).toEqual(fromGit(dir))
  })

  test('a branch whose ref is packed', () => {
    const { dir } = repository()
    git(dir, 'pack-refs', '--all')
    expect(headFromFiles(dir)).toEqual(fromGit(dir))
  })

  test('a detached HEAD', () => {
    const { dir, first } = repository()
    git(dir, 'checkout', '-q', '--detach', first)
    expect(headFromFiles(dir)).toEqual({ commit: first })
    expect(headFromFiles(dir)).toEqual(fromGit(dir))
  })

  test('a linked worktree, its refs in the main repository', () => {
    const { root, dir, first } = repository()
    const worktree = join(root, 'worktree')
    git(dir, 'worktree', 'add', '-q', '-b', 'other', worktree, first)
    expect(headFromFiles(worktree)).toEqual({ commit: first, branch: 'other' })
    expect(headFromFiles(worktree)).toEqual(fromGit(worktree))
  })
})

describe('anything less plain is asked of git', () => {
  test('a branch with no commit yet: git has no commit to give either', async () => {
    const dir = tempFolder('evals-git-')
    git(dir, 'init', '-q', '-b', 'main')
    expect(headFromFiles(dir)).toBe('ask git')
    await expect(gitInfo(dir)).resolves.toBeUndefined()
  })

  test('a HEAD that names a symbolic ref', async () => {
    const { dir } = repository()
    git(dir, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main')
    git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/alias')
    expect(headFromFiles(dir)).toBe('ask git')
    await expect(gitInfo(dir)).resolves.toEqual(fromGit(dir))
    // without git there is no answer: hiding it is what shows the next test reads the files
    hideGit()
    await expect(gitInfo(dir)).resolves.toBeUndefined()
  })
})

test('a directory outside any repository has no commit, and git is not asked', async () => {
  const dir = tempFolder('evals-no-git-')
  expect(() => git(dir, 'rev-parse', 'HEAD')).toThrow(/not a git repository/)
  expect(headFromFiles(dir)).toBeUndefined()
  hideGit()
  await expect(gitInfo(dir)).resolves.toBeUndefined()
})

test('gitInfo gives what git gives, read from the files: it answers with git nowhere on the PATH', async () => {
  const { dir } = repository()
  const expected = fromGit(dir)
  hideGit()
  await expect(gitInfo(dir)).resolves.toEqual(expected)
})
