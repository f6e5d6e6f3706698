import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import semver from 'semver'
import { expect, test } from 'vitest'
import { repo, runShell } from './helpers.ts'

const ours = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node
const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: unknown }>
}

/** the first release our `engines` accepts, and the lines the README names (Node 22 and 24) */
const PROMISED = [semver.minVersion(ours)?.version ?? '', '22.22.0', '24.0.0']

test.each(PROMISED)('every package `npm ci` installs accepts Node %s, which our engines promise', (node) => {
  expect(semver.satisfies(node, ours)).toBe(true)
  const refusing = Object.entries(lock.packages)
    .filter(([path, { engines }]) => {
      const wanted = (engines as { node?: unknown } | undefined)?.node
      return path !== '' && typeof wanted === 'string' && !semver.satisfies(node, wanted)
    })
    .map(([path, { engines }]) => `${path}: ${(engines as { node: string }).node}`)
  expect(refusing).toEqual([])
})

test.skipIf(!semver.satisfies(process.version, ours))(
  "`npm ci` of a clone warns of no package's engines on this Node",
  async () => {
    // the lock file alone decides: a dry run, offline, reads every package's `engines` from it
    const dir = mkdtempSync(join(tmpdir(), 'evals-install-'))
    try {
      for (const file of ['package.json', 'package-lock.json'])
        copyFileSync(join(repo, file), join(dir, file))
      const install = await runShell(
        'npm',
        ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'],
        { cwd: dir },
      )
      expect(install.code, install.stderr).toBe(0)
      expect(`${install.stdout}${install.stderr}`).not.toContain('EBADENGINE')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
  60_000,
)
