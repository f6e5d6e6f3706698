import { appendFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { RUN_INDEX_FILE } from '../../src/runner/results/run-index.ts'
import { listRuns } from '../../src/view/run-list.ts'
import { tempDir } from '../runner/helpers.ts'
import { resultLine, runInto, unfinishedRun } from './runs.ts'

test('a finished run appends one index line with its suites, counts, accuracy interval and cost', async () => {
  const reports = tempDir()
  await runInto(reports, 'run-1', ['refund'])
  await runInto(reports, 'run-2')
  const lines = readFileSync(join(reports, RUN_INDEX_FILE), 'utf8').trimEnd().split('\n')
  expect(lines).toHaveLength(2)
  const first = JSON.parse(lines[0]!) as Record<string, unknown>
  expect(first).toMatchObject({
    v: 1,
    runId: 'run-1',
    counts: { passed: 3, failed: 1, errored: 0, skipped: 0 },
    suites: [
      {
        suite: 'support',
        targetId: 'test:target',
        counts: { passed: 3, failed: 1, errored: 0, skipped: 0 },
        accuracy: { value: 0.75 },
        costUsd: null,
      },
    ],
  })
})

test('lists indexed runs newest first, scans folders without an index line, and never throws on torn ones', async () => {
  const reports = tempDir()
  await runInto(reports, '2026-01-01-a', ['refund'])
  await runInto(reports, '2026-01-02-b')
  // a run from before index lines existed: its summary.json is read instead
  await runInto(reports, '2026-01-03-c', ['greet', 'status'])
  const index = join(reports, RUN_INDEX_FILE)
  writeFileSync(
    index,
    readFileSync(index, 'utf8').split('\n').slice(0, 2).join('\n') + '\n{"v":1,"runId":"2026-01-',
  )
  // a run killed long ago, one still writing, a torn summary, and a folder that is no run
  const killed = unfinishedRun(reports, '2026-01-04-killed', [resultLine('greet', 'passed')])
  const old = new Date(Date.now() - 3_600_000)
  utimesSync(join(killed, 'run.json'), old, old)
  utimesSync(join(killed, 'results.jsonl'), old, old)
  unfinishedRun(reports, '2026-01-05-live')
  mkdirSync(join(reports, '2026-01-06-torn'))
  writeFileSync(join(reports, '2026-01-06-torn', 'summary.json'), '{"suiteStats": [')
  mkdirSync(join(reports, 'not-a-run'))
  appendFileSync(index, 'not json\n')

  const runs = await listRuns([reports])
  expect(runs.map((run) => `${run.runId} ${run.state}`)).toEqual([
    '2026-01-05-live running',
    '2026-01-04-killed partial',
    '2026-01-03-c finished',
    '2026-01-02-b finished',
    '2026-01-01-a finished',
    '2026-01-06-torn torn',
  ])
  const scanned = runs.find((run) => run.runId === '2026-01-03-c')!
  expect(scanned.suites[0]).toMatchObject({ counts: { passed: 2, failed: 2 }, accuracy: { value: 0.5 } })
  expect(scanned.report).toBe(true)
  expect(runs.find((run) => run.state === 'torn')?.problem).toMatch(/^summary\.json: /)
  expect(runs.find((run) => run.state === 'partial')?.suites.map((suite) => suite.suite)).toEqual(['support'])
})

test('a missing reports folder lists no runs', async () => {
  expect(await listRuns([join(tempDir(), 'nope')])).toEqual([])
})
