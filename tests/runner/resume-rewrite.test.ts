import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readFinished } from '../../src/runner/results/read-finished.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function resultsFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-resume-rewrite-'))
  dirs.push(dir)
  const path = join(dir, 'results.jsonl')
  writeFileSync(path, text)
  return path
}

const row = (caseId: string, note = ''): string =>
  JSON.stringify({ suite: 's', caseId, trial: 0, status: 'skipped', reason: note })

test('the rewrite keeps the kept rows byte for byte, whatever their sizes, and leaves no temporary file', async () => {
  const rows = [row('a'), row('b', 'é€😀'.repeat(5_000)), row('c', 'x'), row('d', 'ü'.repeat(70_000))]
  const path = resultsFile(`${rows[0]}\n${rows[1]}\n{"torn\n${rows[2]}\n${rows[0]}\n${rows[3]}`)

  const finished = await readFinished(
    path,
    () => undefined,
    () => undefined,
  )

  expect(finished.dropped).toBe(2)
  expect(readFileSync(path, 'utf8')).toBe(`${rows.join('\n')}\n`)
  expect(readdirSync(join(path, '..'))).toEqual(['results.jsonl'])
})
