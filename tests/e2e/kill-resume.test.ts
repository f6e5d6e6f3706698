import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, runCli } from './helpers.ts'

const CASES = 200

beforeAll(ensureBuilt, 120_000)

function writeSuite(dir: string): string {
  const file = join(dir, 'kill.yaml')
  const cases = Array.from({ length: CASES }, (_, i) =>
    i % 50 === 7
      ? `  - { id: c${String(i)}, input: x, skip: later }`
      : `  - { id: c${String(i)}, input: ${i % 4 === 0 ? 'bad' : 'ok'}-${String(i)} }`,
  )
  const tick = join(import.meta.dirname, 'fixtures', 'tick.ts')
  writeFileSync(
    file,
    [
      'suite: kill',
      'target:',
      `  function: ${tick}#tick`,
      'trials: 2',
      'defaults:',
      '  expect: { contains: ok }',
      'cases:',
      ...cases,
      '',
    ].join('\n'),
  )
  return file
}

interface Summary {
  counts: Record<string, number>
  total: number
  notRun: number
}

function rowsOf(dir: string): string[] {
  return readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const row = JSON.parse(line) as { caseId: string; trial: number; status: string }
      return `${row.caseId}#${String(row.trial)}:${row.status}`
    })
}

function lineCount(file: string): number {
  if (!existsSync(file)) return 0
  return readFileSync(file, 'utf8').split('\n').length - 1
}

test('kill -9 at a random point, then --resume, ends exactly like a clean run: no pair lost, none twice', async () => {
  const work = mkdtempSync(join(tmpdir(), 'evals-kill-'))
  const file = writeSuite(work)
  const args = ['run', file, '--concurrency', '8', '--reporter', 'json', '--no-color']
  const clean = await runCli([...args, '--out', join(work, 'clean')])
  const cleanDir = join(work, 'clean', readdirSync(join(work, 'clean'))[0] ?? '')
  const cleanSummary = JSON.parse(readFileSync(join(cleanDir, 'summary.json'), 'utf8')) as Summary
  const pairs = cleanSummary.total
  expect(clean.code).toBe(1)
  expect(rowsOf(cleanDir)).toHaveLength(pairs)

  // somewhere between 20% and 80% of the pairs
  const killAt = Math.floor(pairs * (0.2 + Math.random() * 0.6))
  let killedAt = -1
  const killed = await runCli([...args, '--out', join(work, 'cut')], {
    onStart: (child) => {
      const poll = setInterval(() => {
        const dirs = existsSync(join(work, 'cut')) ? readdirSync(join(work, 'cut')) : []
        const lines = dirs[0] === undefined ? 0 : lineCount(join(work, 'cut', dirs[0], 'results.jsonl'))
        if (lines < killAt) return
        clearInterval(poll)
        killedAt = lines
        child.kill('SIGKILL')
      }, 10)
      child.on('exit', () => {
        clearInterval(poll)
      })
    },
  })
  expect(killed.code).toBeNull()
  expect(killedAt).toBeGreaterThanOrEqual(killAt)
  const cutDir = join(work, 'cut', readdirSync(join(work, 'cut'))[0] ?? '')
  expect(existsSync(join(cutDir, 'summary.json'))).toBe(false)
  const before = rowsOf(cutDir).length
  expect(before).toBeLessThan(pairs)

  const resumed = await runCli(['run', '--resume', cutDir, '--reporter', 'json', '--no-color'])
  expect(resumed.stderr).not.toMatch(/Error/)
  expect(resumed.code).toBe(clean.code)
  const summary = JSON.parse(readFileSync(join(cutDir, 'summary.json'), 'utf8')) as Summary
  expect(summary.counts).toEqual(cleanSummary.counts)
  expect(summary.total).toBe(pairs)
  expect(summary.notRun).toBe(0)
  const rows = rowsOf(cutDir)
  expect(rows).toHaveLength(pairs)
  expect(new Set(rows).size).toBe(pairs)
  expect(rows.sort()).toEqual(rowsOf(cleanDir).sort())
}, 120_000)

test('--shard 1/2 and 2/2 through the bin, then evals merge, count the same as one unsharded run', async () => {
  const work = mkdtempSync(join(tmpdir(), 'evals-shard-'))
  const file = writeSuite(work)
  const args = ['run', file, '--concurrency', '8', '--reporter', 'json', '--no-color']
  // at once, as a CI job's shards run
  await Promise.all([
    runCli([...args, '--out', join(work, 'full')]),
    runCli([...args, '--shard', '1/2', '--out', join(work, 's1')]),
    runCli([...args, '--shard', '2/2', '--out', join(work, 's2')]),
  ])
  const only = (dir: string): string => join(dir, readdirSync(dir)[0] ?? '')
  const merged = await runCli([
    'merge',
    only(join(work, 's1')),
    join(only(join(work, 's2')), 'summary.json'),
    '--out',
    join(work, 'merged'),
    '--reporter',
    'json',
  ])
  expect(merged.stderr).toBe('')
  expect(merged.stdout).toContain(`Merged    ${join(work, 'merged')}`)
  expect(merged.code).toBe(1)
  const full = JSON.parse(readFileSync(join(only(join(work, 'full')), 'summary.json'), 'utf8')) as Summary
  const summary = JSON.parse(readFileSync(join(work, 'merged', 'summary.json'), 'utf8')) as Summary
  expect(summary.counts).toEqual(full.counts)
  expect(rowsOf(join(work, 'merged')).sort()).toEqual(rowsOf(only(join(work, 'full'))).sort())
  expect(existsSync(join(work, 'merged', 'report.json'))).toBe(true)
}, 120_000)
