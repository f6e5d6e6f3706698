import { readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { CaseFileError } from '../../src/errors.ts'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { renderJunit } from '../../src/reporters/junit.ts'
import { renderMarkdown } from '../../src/reporters/markdown.ts'
import { formatSummary } from '../../src/reporters/console.ts'
import { makeStyle } from '../../src/reporters/format.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import type { Variant } from '../../src/cases/suite.ts'
import type { RunReport } from '../../src/model/run-report.ts'
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
    expect(source.header.schemaVersion).toBe(4)
    const order: string[] = []
    for await (const result of source.cases()) order.push(`${String(result.variant)}/${result.caseId}`)
    const junitFile = join(dir, 'report.junit.xml')
    await renderJunit(await openReport(path), junitFile)
    const junit = await readFile(junitFile, 'utf8')
    expect(junit).toContain('name="greet [v2] [trial 2/2]"')
    expect(junit).toContain('name="version [loud] [trial 1/2]"')
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

describe('the comparison of variants', () => {
  // `good` passes every case, `bad` fails every case, `same` passes as `good`
  const cases = Array.from({ length: 12 }, (_, index) =>
    caseOf(`c${String(index).padStart(2, '0')}`, { expect: { contains: 'yes' } }),
  )
  const target: Target = {
    id: 't',
    run: (input, context) =>
      Promise.resolve(transcriptOf(input, context.vars?.answer === 'no' ? 'no' : 'yes', { latencyMs: 10 })),
  }
  const run = (variants: Variant[]): Promise<RunReport> => {
    const suite = suiteOf(cases, { variants })
    return runSuite(suite, { outDir: tempDir(), targets: new Map([[suite.file, target]]) })
  }

  test('per variant accuracy with its interval, and each pair with the paired test and its verdict', async () => {
    const report = await run([
      { name: 'good', vars: { answer: 'yes' } },
      { name: 'bad', vars: { answer: 'no' } },
      { name: 'same', vars: { answer: 'yes' } },
    ])
    const variants = report.variants
    expect(variants?.variants.map((entry) => [entry.variant, entry.accuracy?.value, entry.cases])).toEqual([
      ['good', 1, 12],
      ['bad', 0, 12],
      ['same', 1, 12],
    ])
    expect(variants?.variants[0]?.accuracy?.interval.low).toBeLessThan(1)
    expect(variants?.variants[0]).toMatchObject({ passHatK: 1, latencyMs: { p50: 10, p95: 10 } })
    expect(variants?.pairs.map((pair) => [pair.a, pair.b, pair.verdict, pair.method])).toEqual([
      ['good', 'bad', 'a-better', 'stratified-permutation'],
      ['good', 'same', 'no-difference', 'stratified-permutation'],
      ['bad', 'same', 'b-better', 'stratified-permutation'],
    ])
    const [goodBad] = variants?.pairs ?? []
    expect(goodBad?.pValue).toBeLessThan(0.001)
    expect(goodBad?.disagreements).toHaveLength(12)
    expect(goodBad?.disagreements[0]).toEqual({ id: 'c00', a: 1, b: 0 })

    const text = formatSummary(report, makeStyle(false))
    expect(text).toContain('Variants')
    expect(text).toMatch(/good +100\.0% \(\d+\.\d%–100\.0%\) +100\.0%/)
    expect(text).toContain('bad vs good: good better · -100.0 pts')
    expect(text).toContain('same vs good: no significant difference · +0.0 pts')

    const source = await openReport(await writeJsonReport(report, { env: {}, cwd: tempDir() }))
    const markdown = await renderMarkdown(source)
    expect(markdown).toContain('### Variants')
    expect(markdown).toContain(
      '| Variant | Accuracy \\(95% CI\\) | pass^k | p50 | p95 | Tokens/case | Cost/case | Cost/pass |',
    )
    expect(markdown).toContain('| bad | 0.0% \\(0.0%–24.2%\\) | 0.0% | 10ms | 10ms | 0 | unknown | n/a |')
    expect(markdown).toContain('- bad vs good: good better')
  })

  test('a `baseline: true` variant gates the others against it', async () => {
    const report = await run([
      { name: 'good', vars: { answer: 'yes' }, baseline: true },
      { name: 'bad', vars: { answer: 'no' } },
    ])
    expect(report.suiteStats.map((entry) => [entry.variant, entry.gate?.decision])).toEqual([
      ['good', undefined],
      ['bad', 'fail'],
    ])
    expect(report.gate?.decision).toBe('fail')
    expect(report.gate?.reasons[0]).toMatch(/^demo \[bad\]: /)

    const better = await run([
      { name: 'bad', vars: { answer: 'no' }, baseline: true },
      { name: 'good', vars: { answer: 'yes' } },
    ])
    expect(better.gate?.decision).toBe('pass')
  })
})
