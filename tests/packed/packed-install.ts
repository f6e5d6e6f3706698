import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuilt, repo } from '../e2e/helpers.ts'

/** A project with the packed package installed, as a user gets it from the registry. */
export interface PackedProject {
  dir: string
  /** the installed package: what `npm pack` put in the tarball */
  packageDir: string
  /** the tarball's file list, relative to the package */
  files: string[]
}

/**
 * `npm pack`s this checkout and unpacks it into `<tmp>/node_modules/agent-evals` of a fresh project whose other
 * node_modules entries link to this checkout's: offline, and one copy of vitest and TypeScript for everything.
 */
export function packedProject(manifest: Record<string, unknown> = {}): PackedProject {
  ensureBuilt()
  const dir = mkdtempSync(join(tmpdir(), 'agent-evals-packed-'))
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: repo,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[]
  const tarball = packed[0]
  if (!tarball) throw new Error('npm pack produced no tarball')
  execFileSync('tar', ['-xzf', join(dir, tarball.filename), '-C', dir])
  const modules = join(dir, 'node_modules')
  mkdirSync(modules)
  const packageDir = join(modules, 'agent-evals')
  renameSync(join(dir, 'package'), packageDir)
  for (const name of readdirSync(join(repo, 'node_modules'))) {
    // `.bin` too: examples start tools installed beside the package (an MCP server)
    if ((name.startsWith('.') && name !== '.bin') || name === 'agent-evals') continue
    symlinkSync(join(repo, 'node_modules', name), join(modules, name))
  }
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'user-project', private: true, ...manifest })}\n`,
  )
  return { dir, packageDir, files: tarball.files.map((file) => file.path) }
}
