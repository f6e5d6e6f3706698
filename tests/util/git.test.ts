import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { gitInfo, headFromFiles } from '../../src/util/git.ts'

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env }).trim()
}

/** A repository with two commits on `feature/x`, whose first commit `main` also points at. */
function repository(): { dir: string; first: string; second: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'evals-git-')))
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'one')
  const first = git(dir, 'rev-parse', 'HEAD')
  git(dir, 'switch', '-q', '-c', 'feature/x')
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'two')
  return { dir, first, second: git(dir, 'rev-parse', 'HEAD') }
}

/** What `git` itself says, in GitInfo's shape. */
function fromGit(dir: string): { commit: string; branch?: string } {
  const [commit = '', branch = ''] = git(dir, 'rev-parse', 'HEAD', '--abbrev-ref', 'HEAD').split('\n')
  return branch === 'HEAD' ? { commit } : { commit, branch }
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
    const { dir, first } = repository()
    const worktree = join(dir, '..', `${dir.split('/').pop() ?? ''}-wt`)
    git(dir, 'worktree', 'add', '-q', '-b', 'other', worktree, first)
    expect(headFromFiles(worktree)).toEqual({ commit: first, branch: 'other' })
    expect(headFromFiles(worktree)).toEqual(fromGit(worktree))
  })
})

describe('anything less plain is asked of git', () => {
  test('a branch with no commit yet: git has no commit to give either', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'evals-git-')))
    git(dir, 'init', '-q', '-b', 'main')
    expect(headFromFiles(dir)).toBe('ask git')
    await expect(gitInfo(dir)).resolves.toBeUndefined()
  })

  test('a HEAD that names a symbolic ref', () => {
    const { dir } = repository()
    git(dir, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main')
    git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/alias')
    expect(headFromFiles(dir)).toBe('ask git')
  })

  test('a directory outside any repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-no-git-'))
    expect(headFromFiles(dir)).toBe('ask git')
    await expect(gitInfo(dir)).resolves.toBeUndefined()
  })
})

test('gitInfo gives what git gives, read from the files', async () => {
  const { dir } = repository()
  await expect(gitInfo(dir)).resolves.toEqual(fromGit(dir))
})
