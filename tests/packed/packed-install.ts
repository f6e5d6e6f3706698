import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuilt, repo } from '../e2e/helpers.ts'
import { oncePerRun } from '../setup/shared-dir.ts'

/** A project with the packed package installed, as a user gets it from the registry. */
export interface PackedProject {
  dir: string
  /** the installed package: what `npm pack` put in the tarball */
  packageDir: string
  /** the tarball's file list, relative to the package */
  files: string[]
}

/** What a project starts with besides the package: its package.json (none when null) and other files. */
export interface PackedProjectOptions {
  manifest?: Record<string, unknown> | null
  files?: Record<string, string>
}

let packed: { tarball: string; files: string[] } | undefined

/** `npm pack` of this checkout (built first), once per test run: the tarball's path and its file list. */
function tarball(): { tarball: string; files: string[] } {
  packed ??= oncePerRun('agent-evals-tarball', (dir) => {
    ensureBuilt()
    const [made] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: repo,
        encoding: 'utf8',
      }),
    ) as { filename: string; files: { path: string }[] }[]
    if (!made) throw new Error('npm pack produced no tarball')
    return { tarball: join(dir, made.filename), files: made.files.map((file) => file.path) }
  })
  return packed
}

/**
 * A fresh project with this checkout's tarball unpacked into `<tmp>/node_modules/agent-evals` and its other
 * node_modules entries linked to this checkout's: offline, and one copy of vitest and TypeScript for everything.
 */
export function packedProject(options: PackedProjectOptions = {}): PackedProject {
  const { tarball: file, files } = tarball()
  const dir = mkdtempSync(join(tmpdir(), 'agent-evals-packed-'))
  execFileSync('tar', ['-xzf', file, '-C', dir])
  const modules = join(dir, 'node_modules')
  mkdirSync(modules)
  const packageDir = join(modules, 'agent-evals')
  renameSync(join(dir, 'package'), packageDir)
  for (const name of readdirSync(join(repo, 'node_modules'))) {
    // `.bin` too: examples start tools installed beside the package (an MCP server)
    if ((name.startsWith('.') && name !== '.bin') || name === 'agent-evals') continue
    symlinkSync(join(repo, 'node_modules', name), join(modules, name))
  }
  const { manifest = {} } = options
  if (manifest !== null) {
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'user-project', private: true, ...manifest })}\n`,
    )
  }
  for (const [path, content] of Object.entries(options.files ?? {})) writeFileSync(join(dir, path), content)
  return { dir, packageDir, files }
}
