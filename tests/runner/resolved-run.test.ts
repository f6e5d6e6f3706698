import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuites } from '../../src/cases/load.ts'
import { readPlan } from '../../src/runner/plan/run-json.ts'
import { resolveRun } from '../../src/runner/plan/resolve-run.ts'
import { resumeRun } from '../../src/runner/resume-run.ts'
import { runSuite, runSuites } from '../../src/runner/run-suite.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

const fns = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'fns.ts')

/** A case file whose echo target prints an account number in every case. */
function accountsFile(dir: string): string {
  const file = join(dir, 'accounts.yaml')
  const cases = Array.from(
    { length: 8 },
    (_, i) => `  - { id: c${String(i)}, input: 'account ACME-12345${String(i)}' }`,
  )
  writeFileSync(
    file,
    [
      'suite: accounts',
      'target:',
      `  function: ${fns}#echo`,
      'defaults:',
      '  expect: { contains: account }',
      'cases:',
      ...cases,
      '',
    ].join('\n'),
  )
  return file
}

describe('resolveRun', () => {
  test('a resumed run redacts what the run began redacting: --redact is saved in run.json and restored', async () => {
    const work = tempDir()
    const suites = await loadSuites([accountsFile(work)])
    await runSuites(suites, { outDir: work, runId: 'cut', redact: ['ACME-\\d{6}'] })
    expect((await readPlan(join(work, 'cut'), 'test')).redact).toEqual(['ACME-\\d{6}'])
    // interrupted after three rows
    const results = join(work, 'cut', 'results.jsonl')
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean)
    writeFileSync(results, `${lines.slice(0, 3).join('\n')}\n`)
    rmSync(join(work, 'cut', 'summary.json'))

    const resumed = await resumeRun(join(work, 'cut'), { force: false })
    const report = await runSuites(resumed.suites, resumed.options)

    expect(report.counts.passed).toBe(8)
    const written = readFileSync(results, 'utf8') + readFileSync(join(work, 'cut', 'summary.json'), 'utf8')
    expect(written).not.toMatch(/ACME-\d{6}/)
    expect(written).toContain('account [redacted]')
  })

  test('the judge model a baseline records is the one that judged (--judge over the file)', async () => {
    const verdict = { toolCalls: [{ name: 'verdict', args: { reasons: 'fine', choice: '10' } }] }
    const suite = suiteOf([caseOf('judged', { judge: [{ rubric: 'Confirms the cancellation' }] })], {
      judge: { model: 'openai:gpt-4.1-mini' },
    })
    const dir = tempDir()
    const report = await runSuite(suite, {
      outDir: dir,
      judge: 'local:judge-model',
      judgeProvider: new ScriptedProvider([verdict]),
      targets: targetsFor(
        suite,
        targetOf((input) => transcriptOf(input, 'Cancelled.')),
      ),
      updateBaseline: { dir: join(dir, 'baselines'), force: true },
      snapshots: false,
    })
    expect(report.counts.passed).toBe(1)
    const baseline = JSON.parse(readFileSync(join(dir, 'baselines', 'demo.json'), 'utf8')) as {
      judgeModel: string | null
    }
    expect(baseline.judgeModel).toBe('local:judge-model')
  })

  test('settles defaults once and applies --model and the judge to every suite copy', () => {
    const suite = suiteOf([caseOf('a')], {
      model: 'openai:file-model',
      judge: { model: 'openai:file-judge', temperature: 0.5 },
    })
    const run = resolveRun([suite], { model: 'openai:flag-model', judge: 'openai:flag-judge' })
    expect(run.suites.map((s) => [s.model, s.judge])).toEqual([
      ['openai:flag-model', { model: 'openai:flag-judge', temperature: 0.5 }],
    ])
    expect(run).toMatchObject({
      concurrency: 4,
      graceMs: 2000,
      outDir: 'reports',
      bail: false,
      snapshots: { dir: 'baselines' },
    })
    expect(resolveRun([suite], {}).suites[0]).toBe(suite)
  })

  test('rejects options that contradict each other or the run being continued', () => {
    const suite = suiteOf([caseOf('a')])
    expect(() =>
      resolveRun([suite], { updateBaseline: { dir: 'b' }, shard: { index: 1, count: 2 } }),
    ).toThrow(/`--update-baseline` writes whole suites, and `--shard 1\/2` runs part of them/)
    const saved = {
      version: 2 as const,
      runId: 'r',
      startedAt: 'now',
      selection: { files: [] },
      suites: [],
      trials: 3,
    }
    expect(() => resolveRun([suite], { trials: 5, saved })).toThrow(
      '`--trials` 5 differs from the run being continued (3); results of both would be mixed. Start a new run, or resume without `--trials`.',
    )
    expect(resolveRun([suite], { saved, redact: ['x{2}'] })).toMatchObject({
      trials: 3,
      redaction: { patterns: ['x{2}'] },
    })
  })

  test('a pattern that matches JSON syntax, numbers or `true` leaves every file readable', async () => {
    const suite = suiteOf([caseOf('a'), caseOf('b')])
    const dir = tempDir()
    const report = await runSuite(suite, {
      outDir: dir,
      redact: ['\\d{12}', 'true', ','],
      targets: targetsFor(
        suite,
        targetOf((input) => transcriptOf(input, 'card 411111111111, true')),
      ),
    })
    for (const file of ['results.jsonl', 'summary.json', 'run.json']) {
      const text = readFileSync(join(report.dir, file), 'utf8')
      for (const line of file.endsWith('.jsonl') ? text.split('\n').filter(Boolean) : [text])
        expect(() => JSON.parse(line) as unknown).not.toThrow()
      expect(text).not.toContain('411111111111')
    }
    expect(report.counts.passed).toBe(2)
  })
})
