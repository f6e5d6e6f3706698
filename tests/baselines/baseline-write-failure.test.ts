import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import { writeBaseline } from '../../src/baselines/baseline.ts'
import { ConfigError } from '../../src/errors.ts'
import { baselineOf, summary } from './fixtures.ts'

const failRename = vi.hoisted(() => ({ on: false }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...actual,
    rename: (from: string, to: string) =>
      failRename.on ? Promise.reject(new Error('EXDEV: simulated rename failure')) : actual.rename(from, to),
  }
})

const dir = mkdtempSync(join(tmpdir(), 'evals-baseline-fail-'))

afterEach(() => {
  failRename.on = false
  rmSync(dir, { recursive: true, force: true })
})

test('a write that fails at the rename leaves the old file intact and no temp file behind', async () => {
  const path = join(dir, 'support.json')
  writeFileSync(path, 'old')
  failRename.on = true
  await expect(writeBaseline(path, baselineOf([summary('greet', 'pass')]))).rejects.toThrow(
    new ConfigError(
      `Cannot write baseline file \`${path}\`: EXDEV: simulated rename failure. Check that its directory is writable.`,
    ),
  )
  expect(readFileSync(path, 'utf8')).toBe('old')
  expect(readdirSync(dir)).toEqual(['support.json'])
})
