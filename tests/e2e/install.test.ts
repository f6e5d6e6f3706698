import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { repo, runShell } from './helpers.ts'

test("`npm ci` of a clone warns of no dependency's engines on this Node (the README promises ≥ 20.19)", async () => {
  // the lock file alone decides: a dry run, offline, reads every package's `engines` from it
  const dir = mkdtempSync(join(tmpdir(), 'evals-install-'))
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(repo, file), join(dir, file))
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
}, 60_000)
