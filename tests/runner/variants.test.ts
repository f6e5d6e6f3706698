import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { CaseFileError } from '../../src/errors.ts'
import { openReport } from '../../src/report/read.ts'
import { writeJsonReport } from '../../src/report/write-json.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import type { Target } from '../../src/targets/target.ts'
import { caseOf, readResults, suiteOf, tempDir, transcriptOf } from './helpers.ts'

const fixtures = join(import.meta.dirname, 'fixtures')

function caseFile(dir: string, variants: string): string {
  const file = join(dir, 'compare.yaml')
  writeFileSync(
    file,
    [
      'suite: compare',
      `target: { function: ${join(fixtures, 'variant-target.ts')}#versioned }`,
      'model: local',
      'cases:',
      '  - id: greet',
      '    input: hello',
      '    vars: { prompt: v1 }',
      '    expect: { contains: hello }',
      '  - id: version',
      '    input: which',
      '    vars: { prompt: v1 }',
      '    expect: { contains: v2 }',
      variants,
    ].join('\n'),
  )
  return file
}

const threeVariants = [
  'variants:',
  '  - { name: v1, baseline: true }',
  '  - { name: v2, vars: { prompt: v2 } }',
  `  - { name: loud, target: { function: ${join(fixtures, 'variant-target.ts')}#shouting } }`,
].join('\n')

describe('variants', () => {
  test('every (case, variant, trial) runs, and results, stats and report.json carry the variant', async () => {
    const dir = tempDir()
    const suite = await loadSuite(caseFile(dir, threeVariants))
    const report = await runSuite(suite, { outDir: dir, runId: 'r', trials: 2 })

    expect(report.total).toBe(12)
    const rows = readResults(report.resultsFile)
    expect(
      rows.map((row) => `${String(row.variant)}/${row.caseId}#${row.trial}:${row.status}`).sort(),
    ).toEqual([
      'loud/greet#0:passed',
      'loud/greet#1:passed',
      'loud/version#0:failed',
      'loud/version#1:failed',
      'v1/greet#0:passed',
      'v1/greet#1:passed',
      'v1/version#0:failed',
      'v1/version#1:failed',
      'v2/greet#0:passed',
      'v2/greet#1:passed',
      'v2/version#0:passed',
      'v2/version#1:passed',
    ])
    const v2 = rows.find((row) => row.variant === 'v2' && row.status !== 'skipped')
    expect(v2?.status !== 'skipped' && v2?.transcript?.output).toBe('v2 on local: hello')
    expect(report.suites.map((entry) => [entry.variant, entry.baseline])).toEqual([
      ['v1', true],
      ['v2', undefined],
      ['loud', undefined],
    ])
    expect(report.suiteStats.map((stats) => [stats.variant, stats.accuracy?.accuracy])).toEqual([
      ['v1', 0.5],
      ['v2', 1],
      ['loud', 0.5],
    ])
    expect([...report.cases].map((entry) => `${String(entry.variant)}/${entry.id}`)).toHaveLength(6)

    const path = await writeJsonReport(report, { env: {}, cwd: dir })
    const source = await openReport(path)
    expect(source.header.schemaVersion).toBe(3)
    const order: string[] = []
    for await (const result of source.cases()) order.push(`${String(result.variant)}/${result.caseId}`)
    // by suite and variant in run order, then case id
    expect(order.filter((_, index) => index % 2 === 0)).toEqual([
      'v1/greet',
      'v1/version',
      'v2/greet',
      'v2/version',
      'loud/greet',
      'loud/version',
    ])
  })

  test('several models (`--model a --model b`) are variants named after them, instead of the file’s', async () => {
    const dir = tempDir()
    const suite = await loadSuite(caseFile(dir, threeVariants))
    const report = await runSuite(suite, { outDir: dir, models: ['local', 'scripted:echo'] })
    const outputs = readResults(report.resultsFile)
      .filter((row) => row.caseId === 'greet')
      .map((row) => [row.variant, row.status !== 'skipped' && row.transcript?.output])
    expect(outputs.sort()).toEqual([
      ['local', 'v1 on local: hello'],
      ['scripted:echo', 'v1 on scripted:echo: hello'],
    ])
  })

  test('a run without variants writes rows without a `variant` key, as before', async () => {
    const suite = suiteOf([caseOf('a')])
    const target: Target = { id: 't', run: (input) => Promise.resolve(transcriptOf(input, 'ok')) }
    const report = await runSuite(suite, { outDir: tempDir(), targets: new Map([[suite.file, target]]) })
    expect(readFileSync(report.resultsFile, 'utf8')).not.toContain('variant')
    expect(report.suites[0]).not.toHaveProperty('variant')
  })

  test('each variant writes its own baseline, `<suite>-<variant>.json`', async () => {
    const dir = tempDir()
    const suite = await loadSuite(caseFile(dir, threeVariants))
    const report = await runSuite(suite, {
      outDir: dir,
      updateBaseline: { dir: join(dir, 'baselines'), force: true },
    })
    expect(report.suiteStats.map((stats) => stats.baselineWritten)).toEqual([
      join(dir, 'baselines', 'compare-v1.json'),
      join(dir, 'baselines', 'compare-v2.json'),
      join(dir, 'baselines', 'compare-loud.json'),
    ])
  })

  test('a slow provider does not starve the others: each provider has its own workers', async () => {
    const cases = Array.from({ length: 4 }, (_, index) => caseOf(`c${String(index)}`))
    const suite = suiteOf(cases, {
      variants: [
        { name: 'slow', model: 'slow:model' },
        { name: 'fast', model: 'fast:model' },
      ],
    })
    let fastDone = 0
    let release = (): void => undefined
    const allFastDone = new Promise<void>((resolve) => {
      release = resolve
    })
    // the slow provider answers only once every fast case has finished: sharing one worker would time out
    const target: Target = {
      id: 't',
      run: async (input, context) => {
        if (context.model === 'slow:model') await allFastDone
        else if (++fastDone === cases.length) release()
        return transcriptOf(input, 'ok')
      },
    }
    const report = await runSuite(suite, {
      outDir: tempDir(),
      concurrency: 1,
      timeoutMs: 5_000,
      targets: new Map([[suite.file, target]]),
    })
    expect(report.counts).toMatchObject({ passed: 8, errored: 0 })
  })
})

describe('the `variants:` block', () => {
  test('names the problem when two variants share a name or two are the baseline', async () => {
    const dir = tempDir()
    const file = caseFile(
      dir,
      ['variants:', '  - { name: a, baseline: true }', '  - { name: a, baseline: true }'].join('\n'),
    )
    const error = await loadSuite(file).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(CaseFileError)
    expect((error as CaseFileError).message).toContain('variants[1].name: variant `a` is named twice')
    expect((error as CaseFileError).message).toContain('only one variant may be `baseline: true`')
  })
})
