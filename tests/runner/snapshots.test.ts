import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { formatSummary } from '../../src/reporters/console.ts'
import { makeStyle } from '../../src/reporters/format.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { caseOf, readResults, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

async function runWith(dir: string, answer: string, cases: CaseDefinition[], update = false) {
  const suite = suiteOf(cases)
  const target = targetOf((input) => transcriptOf(input, answer))
  const report = await runSuite(suite, {
    outDir: tempDir(),
    targets: targetsFor(suite, target),
    snapshots: { dir, update },
  })
  return { report, results: readResults(report.resultsFile) }
}

const snapshotStatus = (result: CaseResult): string | undefined =>
  result.status === 'passed' || result.status === 'failed' ? result.snapshot?.status : undefined

const snapshotCase = (snapshot: true | 'strict' = true) =>
  caseOf('greet', { expect: { contains: 'hello' }, snapshot })

describe('snapshots', () => {
  test('stores a new output in <dir>/<suite>.snapshots.json, canonical and indented', async () => {
    const dir = tempDir()
    const { results, report } = await runWith(dir, 'hello there', [snapshotCase(), caseOf('plain')])

    expect(results.map((result) => result.status !== 'skipped' && 'snapshot' in result)).toEqual([
      true,
      false,
    ])
    expect(results[0]).toMatchObject({ status: 'passed', snapshot: { status: 'new' } })
    expect(readFileSync(join(dir, 'demo.snapshots.json'), 'utf8')).toBe(
      '{\n  "snapshots": {\n    "greet": {\n      "output": "hello there"\n    }\n  },\n  "suite": "demo",\n  "version": 1\n}\n',
    )
    expect(report.snapshots).toMatchObject({
      new: 1,
      changed: 0,
      written: [join(dir, 'demo.snapshots.json')],
    })
  })

  test('reports a moved output with a diff without failing the case, and keeps the stored one', async () => {
    const dir = tempDir()
    await runWith(dir, 'hello there\nhow can I help?', [snapshotCase()])
    const { results, report } = await runWith(dir, 'hello there\nwhat do you need?', [snapshotCase()])

    expect(results[0]).toMatchObject({
      status: 'passed',
      snapshot: {
        status: 'changed',
        diff: '@@ -1,2 +1,2 @@\n hello there\n-how can I help?\n+what do you need?',
      },
    })
    expect(report.snapshots?.written).toEqual([])
    expect(readFileSync(join(dir, 'demo.snapshots.json'), 'utf8')).toContain('how can I help?')
    expect(formatSummary(report, makeStyle(false))).toContain(
      [
        'Snapshots 0 unchanged · 0 new · 1 changed',
        '  ~ demo › greet changed',
        '      @@ -1,2 +1,2 @@',
        '       hello there',
        '      -how can I help?',
        '      +what do you need?',
      ].join('\n'),
    )
  })

  test('`snapshot: strict` fails the case when the output moved, and says how to accept it', async () => {
    const dir = tempDir()
    await runWith(dir, 'hello there', [snapshotCase('strict')])
    const same = await runWith(dir, 'hello there', [snapshotCase('strict')])
    const moved = await runWith(dir, 'hello again', [snapshotCase('strict')])

    expect(same.results[0]).toMatchObject({ status: 'passed', snapshot: { status: 'unchanged' } })
    expect(moved.results[0]).toMatchObject({ status: 'failed' })
    const verdict = moved.results[0]?.status === 'failed' ? moved.results[0].verdicts.at(-1) : undefined
    expect(verdict).toMatchObject({
      evaluator: 'snapshot',
      pass: false,
      reason: expect.stringContaining('accept it with --update-snapshots') as unknown,
    })
  })

  test('`--update-snapshots` stores every case’s output and replaces the moved ones', async () => {
    const dir = tempDir()
    await runWith(dir, 'hello there', [snapshotCase()])
    const { results } = await runWith(dir, 'hello again', [snapshotCase(), caseOf('plain')], true)

    expect(results.map((result) => snapshotStatus(result))).toEqual(['updated', 'new'])
    const file = JSON.parse(readFileSync(join(dir, 'demo.snapshots.json'), 'utf8')) as unknown
    expect(file).toEqual({
      snapshots: { greet: { output: 'hello again' }, plain: { output: 'hello again' } },
      suite: 'demo',
      version: 1,
    })
    // stored snapshots are compared from then on, with or without `snapshot:` on the case
    const next = await runWith(dir, 'hello again', [snapshotCase(), caseOf('plain')])
    expect(next.results.map((result) => snapshotStatus(result))).toEqual(['unchanged', 'unchanged'])
  })

  test('a conversation is stored reply by reply', async () => {
    const dir = tempDir()
    const chat = caseOf('chat', {
      input: [],
      turns: [
        { user: 'a', expect: {} },
        { user: 'b', expect: {} },
      ],
      snapshot: true,
    })
    await runWith(dir, 'one', [chat])
    const { results } = await runWith(dir, 'two', [chat])

    expect(results[0]).toMatchObject({
      snapshot: { status: 'changed', diff: '@@ -1,4 +1,4 @@\n [turn 1]\n-one\n+two\n [turn 2]\n-one\n+two' },
    })
  })

  test('an unreadable snapshot file stops the run before it starts, naming the file', async () => {
    const dir = tempDir()
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(dir, 'demo.snapshots.json'), '{ not json')
    await expect(runWith(dir, 'x', [snapshotCase()])).rejects.toThrow(
      /Snapshot file `.*demo\.snapshots\.json` is not valid JSON .*; delete it and run again with `--update-snapshots`/,
    )
  })
})
