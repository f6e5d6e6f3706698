import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, repo, runCli } from './helpers.ts'

const faq = join(repo, 'cases', 'fns', 'faq.ts')

beforeAll(() => {
  ensureBuilt()
}, 120_000)

function resultsOf(out: string): { caseId: string; status: string }[] {
  const [runId = ''] = readdirSync(out)
  return readFileSync(join(out, runId, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { caseId: string; status: string })
}

/** A suite over `rows` (CSV text) in a folder of its own; returns the folder. */
function csvSuite(rows: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-e2e-datasets-'))
  writeFileSync(
    join(dir, 'faq.yaml'),
    [
      'suite: faq',
      `target: { function: '${faq}#answer' }`,
      'columns: { input: question, expected: answer }',
      "defaults: { expect: { contains: '{{expected}}' } }",
      'cases: ./faq.csv',
      '',
    ].join('\n'),
  )
  writeFileSync(join(dir, 'faq.csv'), rows)
  return dir
}

test('`evals run` runs one case per CSV row, checked by the templated defaults, and fails on a wrong answer', async () => {
  const dir = csvSuite(
    'id,question,answer\nhours,When are you open?,9:00\nship,How much is shipping?,free of charge\n',
  )
  const out = join(dir, 'reports')
  const run = await runCli(['run', join(dir, 'faq.yaml'), '--out', out])
  expect(run.code, run.stderr).toBe(1)
  expect(run.stdout).toMatch(/Cases {5}1 passed · 1 failed · 0 errored · 0 skipped/)
  expect(run.stdout).toContain('contains')
  expect(resultsOf(out).map(({ caseId, status }) => `${caseId}:${status}`)).toEqual([
    'hours:passed',
    'ship:failed',
  ])
})

test('a bad row stops the run before anything runs, with exit code 2 and the row at file:line', async () => {
  const dir = csvSuite('id,question,answer\nhours,When are you open?,9:00\nbad,"unclosed,9:00\n')
  const run = await runCli(['run', join(dir, 'faq.yaml'), '--out', join(dir, 'reports')])
  expect(run.code).toBe(2)
  expect(run.stderr).toContain(`${join(dir, 'faq.csv')}:3:1: Quote Not Closed`)
  expect(run.stderr).toContain('nothing ran')
})

test('the example in cases/datasets runs green offline, its CSV rows under hashed ids', async () => {
  const out = mkdtempSync(join(tmpdir(), 'evals-e2e-datasets-'))
  const run = await runCli(['run', 'cases/datasets/faq.yaml', '--out', out])
  expect(run.code, run.stderr).toBe(0)
  const ids = resultsOf(out).map((row) => row.caseId)
  expect(ids).toHaveLength(6)
  expect(ids.slice(0, 4)).toEqual(
    ids.slice(0, 4).map(() => expect.stringMatching(/^faq-[0-9a-f]{12}$/) as string),
  )
  // the same rows give the same ids on every run, so baselines stay paired
  const again = mkdtempSync(join(tmpdir(), 'evals-e2e-datasets-'))
  await runCli(['run', 'cases/datasets/faq.yaml', '--out', again])
  expect(resultsOf(again).map((row) => row.caseId)).toEqual(ids)
})
