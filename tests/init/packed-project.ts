import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repo } from '../e2e/helpers.ts'

export const packageName = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string })
  .name

export interface Ran {
  code: number | null
  output: string
}

/** Runs a command to its end; stdin is not a terminal, so init asks nothing. */
export function run(cwd: string, command: string, args: readonly string[]): Ran {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    input: '',
    env: { ...process.env, CI: '1' },
  })
  return { code: result.status, output: `${result.stdout}${result.stderr}` }
}

/** The same without blocking this process, for a command that talks to a server the test runs. */
export function runAsync(
  cwd: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      resolve({ code, output })
    })
  })
}

/** `evals …` as the project's installed bin runs it. */
export function evalsBin(dir: string): string {
  return join(dir, 'node_modules', packageName, 'bin', 'evals.js')
}

/** `tsc -p .` in the project, with this checkout's TypeScript. */
export function tscIn(dir: string): Ran {
  return run(dir, process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'])
}
