import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const repo = resolve(import.meta.dirname, '..', '..')
export const bin = join(repo, 'bin', 'evals.js')

/**
 * Builds dist/ (the compiled modules, then the CLI bundle the bin loads) unless the bundle is newer than every file
 * in src/. `--noCheck`: the same JavaScript and declarations as `npm run build` (unions in the .d.ts may list their
 * members in another order) at half the CPU, since `npm run typecheck` checks the types.
 */
export function ensureBuilt(): void {
  const built = join(repo, 'dist', 'bundle', 'main.js')
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(repo, 'src'))) return
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc')
  spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: repo, stdio: 'ignore' })
  spawnSync(process.execPath, ['--import', 'tsx', join('scripts', 'bundle-cli.ts')], {
    cwd: repo,
    stdio: 'ignore',
  })
  if (!existsSync(built)) throw new Error('`npm run build` did not produce dist/bundle/main.js')
}

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

export interface CliOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** called with the child once it started, e.g. to send SIGINT */
  onStart?: (child: ReturnType<typeof spawn>) => void
}

/** Spawns the built `evals` bin (not a TTY, so plain lines and no colours). */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return runShell(process.execPath, [bin, ...args], options)
}

export function runShell(
  command: string,
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliRun> {
  const started = performance.now()
  const env = { ...process.env, ...options.env }
  delete env.NO_COLOR
  delete env.FORCE_COLOR
  const child = spawn(command, args, { cwd: options.cwd ?? repo, env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  options.onStart?.(child)
  return new Promise((done) => {
    child.on('close', (code) => {
      done({ code, stdout, stderr, ms: performance.now() - started })
    })
  })
}
