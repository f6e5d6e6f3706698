import { execFile } from 'node:child_process'

/** The commit and branch of the work tree at `cwd`; undefined outside a git repository or without git. */
export async function gitInfo(cwd: string): Promise<{ commit: string; branch?: string } | undefined> {
  const [commit, branch] = await Promise.all([
    git(['rev-parse', 'HEAD'], cwd),
    git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd),
  ])
  if (commit === undefined) return undefined
  return branch === undefined || branch === 'HEAD' ? { commit } : { commit, branch }
}

function git(args: string[], cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 5000 }, (error, stdout) => {
      resolve(error ? undefined : stdout.trim() || undefined)
    })
  })
}
