import { execFile } from 'node:child_process'

export type GitInfo = { commit: string; branch?: string } | undefined

const lookups = new Map<string, Promise<GitInfo>>()

/**
 * The commit and branch of the work tree at `cwd`; undefined outside a git repository or without git. Callers
 * asking for a directory while its lookup runs (a run's suites) share that one `git` process.
 */
export function gitInfo(cwd: string): Promise<GitInfo> {
  let lookup = lookups.get(cwd)
  if (!lookup) {
    lookup = lookUp(cwd).finally(() => lookups.delete(cwd))
    lookups.set(cwd, lookup)
  }
  return lookup
}

function lookUp(cwd: string): Promise<GitInfo> {
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
