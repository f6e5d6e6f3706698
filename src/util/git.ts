import { execFile } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export type GitInfo = { commit: string; branch?: string } | undefined

const lookups = new Map<string, Promise<GitInfo>>()

/**
 * The commit and branch of the work tree at `cwd`; undefined outside a git repository or without git. Read from
 * the repository's files when they are plain (`headFromFiles`), else asked of `git`; callers asking for a directory
 * while its lookup runs (a run's suites) share that one `git` process.
 */
export function gitInfo(cwd: string): Promise<GitInfo> {
  const read = headFromFiles(cwd)
  if (read !== 'ask git') return Promise.resolve(read)
  let lookup = lookups.get(cwd)
  if (!lookup) {
    lookup = askGit(cwd).finally(() => lookups.delete(cwd))
    lookups.set(cwd, lookup)
  }
  return lookup
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
const BRANCH_REF = /^ref: (refs\/heads\/\S+)$/

/**
 * What `git rev-parse HEAD --abbrev-ref HEAD` prints, read from `.git/HEAD` and the branch's loose or packed ref:
 * starting `git` costs a run more (its spawn blocks the event loop) than the whole lookup. Undefined when no `.git`
 * is found on the way up, where git finds none either. `'ask git'` when the layout is anything less plain:
 * `GIT_DIR` set, a ref that is symbolic, missing or in a reftable.
 */
export function headFromFiles(cwd: string): GitInfo | 'ask git' {
  if (process.env['GIT_DIR'] !== undefined) return 'ask git'
  try {
    const gitDir = findGitDir(resolve(cwd))
    if (gitDir === undefined) return undefined
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
    if (OBJECT_ID.test(head)) return { commit: head }
    const ref = BRANCH_REF.exec(head)?.[1]
    if (ref === undefined) return 'ask git'
    const commit = refCommit(commonDir(gitDir), ref)
    return commit === undefined ? 'ask git' : { commit, branch: ref.slice('refs/heads/'.length) }
  } catch {
    return 'ask git'
  }
}

/** The `.git` directory of the work tree holding `dir`: `.git` itself, or where a `.git` file (a worktree) points. */
function findGitDir(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, '.git')
    const stats = statSync(dotGit, { throwIfNoEntry: false })
    if (stats?.isDirectory()) return dotGit
    if (stats?.isFile()) {
      const target = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]
      return target === undefined ? undefined : resolve(at, target.trim())
    }
    if (dirname(at) === at) return undefined
  }
}

/** Where the refs live: a linked worktree's `commondir` names the main repository's `.git`. */
function commonDir(gitDir: string): string {
  const common = statSync(join(gitDir, 'commondir'), { throwIfNoEntry: false })
  return common ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir
}

function refCommit(dir: string, ref: string): string | undefined {
  const loose = statSync(join(dir, ref), { throwIfNoEntry: false })
  if (loose?.isFile()) {
    const id = readFileSync(join(dir, ref), 'utf8').trim()
    return OBJECT_ID.test(id) ? id : undefined
  }
  if (!statSync(join(dir, 'packed-refs'), { throwIfNoEntry: false })) return undefined
  for (const line of readFileSync(join(dir, 'packed-refs'), 'utf8').split('\n')) {
    const [id, name] = line.trim().split(' ')
    if (name === ref && id !== undefined && OBJECT_ID.test(id)) return id
  }
  return undefined
}

function askGit(cwd: string): Promise<GitInfo> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'],
      { cwd, timeout: 5000 },
      (error, stdout) => {
        const [commit, branch] = stdout.trim().split('\n')
        if (error || !commit) resolve(undefined)
        else
          resolve(
            branch === undefined || branch === '' || branch === 'HEAD' ? { commit } : { commit, branch },
          )
      },
    )
  })
}
