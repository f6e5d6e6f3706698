import { spawn, spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { ensureBuilt, repo } from '../e2e/helpers.ts'

export const packageName = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string })
  .name

export interface Ran {
  code: number | null
  output: string
}

/** Runs a command to its end; stdin is not a terminal, so init asks nothing. */
export function run(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Ran {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    input: '',
    env: { ...process.env, CI: '1', ...env },
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

/**
 * Packs this repository once for the test file (`npm pack`, after a build) and returns a maker of project folders
 * with the packed package installed: the tarball unpacked, its dependencies linked from ours (offline).
 */
export function packedProjects(): (files?: Record<string, string>) => string {
  const work = mkdtempSync(join(tmpdir(), 'evals-init-'))
  let tarball = ''
  beforeAll(() => {
    ensureBuilt()
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: repo,
      encoding: 'utf8',
    })
    if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`)
    tarball = join(work, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename)
  }, 120_000)
  afterAll(() => {
    rmSync(work, { recursive: true, force: true })
  })
  return (files = {}) => {
    const dir = mkdtempSync(join(work, 'project-'))
    const modules = join(dir, 'node_modules')
    mkdirSync(modules)
    for (const name of readdirSync(join(repo, 'node_modules'))) {
      if (name === '.bin' || name === packageName || name.startsWith('.')) continue
      symlinkSync(join(repo, 'node_modules', name), join(modules, name))
    }
    const unpacked = mkdtempSync(join(work, 'unpacked-'))
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked])
    if (tar.status !== 0) throw new Error(`tar failed: ${String(tar.stderr)}`)
    renameSync(join(unpacked, 'package'), join(modules, packageName))
    for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content)
    return dir
  }
}
