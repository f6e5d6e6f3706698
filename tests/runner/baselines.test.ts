import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readBaseline } from '../../src/baselines/baseline.ts'
import { knownFailuresOf } from '../../src/baselines/outcome.ts'
import type { Suite } from '../../src/cases/suite.ts'
import { runSuite, runSuites, type RunOptions } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

/** A suite of three checked cases; `refund` is critical. */
function support(fields: Partial<Suite> = {}): Suite {
  return suiteOf(
    [
      caseOf('greet', { expect: { contains: 'ok' } }),
      caseOf('refund', { expect: { contains: 'ok' }, tags: ['critical'] }),
      caseOf('status', { expect: { contains: 'ok' } }),
    ],
    { name: 'support', ...fields },
  )
}

/** Answers `ok` except for the inputs listed as broken. */
function run(suite: Suite, broken: readonly string[], options: RunOptions = {}) {
  const target = targetOf((input) => transcriptOf(input, broken.includes(input) ? 'no' : 'ok'))
  return runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target), ...options })
}

describe('baselines in the runner', () => {
  test('--update-baseline writes <dir>/<suite>.json in canonical form, per-case summaries only', async () => {
    const dir = tempDir()
    const report = await run(support(), [], { updateBaseline: { dir } })
    const file = join(dir, 'support.json')
    expect(report.suiteStats[0]?.baselineWritten).toBe(file)
    const baseline = await readBaseline(file)
    expect(baseline).toMatchObject({
      schemaVersion: 1,
      suite: 'support',
      targetId: 'test:target',
      modelId: null,
    })
    expect(baseline.cases.map((entry) => entry.id)).toEqual(['greet', 'refund', 'status'])
    expect(baseline.cases[1]).toEqual({
      id: 'refund',
      inputHash: [...report.cases][1]?.inputHash,
      tags: ['critical'],
      status: 'passed',
      passes: 1,
      trials: 1,
      latencyMs: 1,
      costUsd: null,
    })
    expect(report.gate).toBeUndefined()
  })

  test('an identical rerun passes the gate; a critical case that flips at one trial warns, named', async () => {
    const dir = tempDir()
    await run(support(), [], { updateBaseline: { dir } })
    const same = await run(support(), [], { baseline: { path: dir } })
    expect(same.gate).toMatchObject({ decision: 'pass', reasons: [], warnings: [] })
    expect(same.comparison?.counts).toMatchObject({ unchanged: 3, regressed: 0 })
    expect(same.suiteStats[0]?.baselineFile).toBe(join(dir, 'support.json'))

    const broken = await run(support(), ['refund'], { baseline: { path: join(dir, 'support.json') } })
    expect(broken.gate?.decision).toBe('warn')
    expect(broken.gate?.warnings[0]).toMatch(
      /^Critical case `refund` dropped: 1\/1 → 0\/1 trials passed \(tagged `critical`\), but 1 trial\(s\)/,
    )
    expect(broken.comparison?.paired).toMatchObject({ method: 'stratified-permutation', regressions: 1 })
    const strict = await run(support(), ['refund'], {
      baseline: { path: dir, gate: { strict_critical: true } },
    })
    expect(strict.gate?.decision).toBe('fail')
  })

  test('a missing baseline leaves that suite ungated, with a warning, and the others gated', async () => {
    const dir = tempDir()
    const baselines = join(dir, 'baselines')
    const target = targetOf((input) => transcriptOf(input, input === 'refund' ? 'no' : 'ok'))
    const old = support({ name: 'old', file: join(dir, 'old.yaml') })
    const added = support({ name: 'added', file: join(dir, 'added.yaml') })
    const targets = new Map([
      [old.file, targetOf((input) => transcriptOf(input, 'ok'))],
      [added.file, target],
    ])
    await runSuites([old], { outDir: tempDir(), targets, updateBaseline: { dir: baselines } })
    const report = await runSuites([old, added], {
      outDir: tempDir(),
      targets,
      baseline: { path: baselines, gate: { min_pass_rate: { cases: { refund: 1 } } } },
    })
    expect(report.suiteStats.map((stats) => [stats.suite, stats.baselineMissing === true])).toEqual([
      ['old', false],
      ['added', true],
    ])
    expect(report.comparisons ?? [report.comparison]).toHaveLength(1)
    // floors still apply to the new suite; its missing baseline is a warning naming the file
    expect(report.gate?.reasons).toEqual([
      'added: Case `refund` passed 0/1 trials (0.0%), below its `min_pass_rate` of 100.0%.',
    ])
    expect(report.gate?.warnings).toEqual([
      `added: No baseline at \`${join(baselines, 'added.json')}\`, so this suite ran ungated (only floors apply). ` +
        'Create it with `evals run <case-file> --update-baseline`; `--baseline-missing error` makes a missing baseline stop the run.',
    ])
  })

  test('`missing: error` stops the run before it starts, naming the file', async () => {
    const dir = tempDir()
    let ran = false
    const suite = support()
    const target = targetOf((input) => {
      ran = true
      return transcriptOf(input, 'ok')
    })
    await expect(
      runSuite(suite, {
        outDir: dir,
        targets: targetsFor(suite, target),
        baseline: { path: join(dir, 'baselines'), missing: 'error' },
      }),
    ).rejects.toThrow(
      `Baseline file \`${join(dir, 'baselines', 'support.json')}\` does not exist. Create it with \`evals run <case-file> --update-baseline\`, or drop \`--baseline-missing error\` to run this suite ungated.`,
    )
    expect(ran).toBe(false)
  })

  test('a corrupt or wrong-version baseline is an error naming the file', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'support.json'), '{ "schemaVersion": 99 }')
    await expect(run(support(), [], { baseline: { path: dir } })).rejects.toThrow(
      `Baseline file \`${join(dir, 'support.json')}\` has schemaVersion 99, but this version of evals reads schemaVersion 1.`,
    )
    writeFileSync(join(dir, 'support.json'), '{ nope')
    await expect(run(support(), [], { baseline: { path: dir } })).rejects.toThrow(
      `Baseline file \`${join(dir, 'support.json')}\` is not valid JSON`,
    )
  })

  test('`missing: ok` runs without a comparison, marks the baseline missing, and still applies floors', async () => {
    const dir = tempDir()
    const report = await run(support({ gate: { min_pass_rate: { cases: { status: 1 } } } }), ['status'], {
      baseline: { path: dir, missing: 'ok' },
    })
    expect(report.comparison).toBeUndefined()
    expect(report.suiteStats[0]).toMatchObject({
      baselineMissing: true,
      baselineFile: join(dir, 'support.json'),
    })
    expect(report.gate?.reasons).toEqual([
      'Case `status` passed 0/1 trials (0.0%), below its `min_pass_rate` of 100.0%.',
    ])
  })

  test("flags win over the case file's gate block", async () => {
    const dir = tempDir()
    const suite = suiteOf(
      Array.from({ length: 8 }, (_, i) => caseOf(`c${i}`, { expect: { contains: 'ok' } })),
      { name: 'many', gate: { alpha: 0.01 } },
    )
    const passing = targetOf((input) => transcriptOf(input, 'ok'))
    await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, passing), updateBaseline: { dir } })
    const failing = targetOf((input) =>
      transcriptOf(input, ['c0', 'c1', 'c2', 'c3', 'c4'].includes(input) ? 'no' : 'ok'),
    )
    // 5 of 8 regress: as the exact McNemar test, one-sided p = 1/32 ≈ 0.031, over α = 0.01 but under 0.05
    const strict = await runSuite(suite, {
      outDir: tempDir(),
      targets: targetsFor(suite, failing),
      baseline: { path: dir },
    })
    expect(strict.gate?.decision).toBe('pass')
    const loose = await runSuite(suite, {
      outDir: tempDir(),
      targets: targetsFor(suite, failing),
      baseline: { path: dir, gate: { alpha: 0.05 } },
    })
    expect(loose.gate?.decision).toBe('fail')
    expect(loose.gate?.reasons[0]).toMatch(/^Accuracy fell 62\.5 points on 8 paired case\(s\)/)
  })

  test('does not write a baseline for a run stopped by --bail', async () => {
    const dir = tempDir()
    const report = await run(support(), ['greet'], { updateBaseline: { dir }, bail: true, concurrency: 1 })
    expect(report.stoppedBy).toBe('bail')
    expect(report.suiteStats[0]?.baselineWritten).toBeUndefined()
    expect(existsSync(join(dir, 'support.json'))).toBe(false)
  })

  test('does not write a baseline for a suite with a failing case, unless forced', async () => {
    const dir = tempDir()
    const refused = await run(support(), ['greet'], { updateBaseline: { dir } })
    expect(refused.suiteStats[0]?.baselineWritten).toBeUndefined()
    expect(refused.suiteStats[0]?.baselineSkipped).toBe('1 failed (`greet`)')
    expect(existsSync(join(dir, 'support.json'))).toBe(false)
    const forced = await run(support(), ['greet'], { updateBaseline: { dir, force: true } })
    expect(forced.suiteStats[0]?.baselineWritten).toBe(join(dir, 'support.json'))
    expect((await readBaseline(join(dir, 'support.json'))).cases[0]).toMatchObject({
      id: 'greet',
      status: 'failed',
    })
  })

  test('--update-baseline writes the clean suites and names the ones it skipped', async () => {
    const dir = tempDir()
    const clean = support({ name: 'clean', file: join(dir, 'clean.yaml') })
    const failing = support({ name: 'failing', file: join(dir, 'failing.yaml') })
    const targets = new Map([
      [clean.file, targetOf((input) => transcriptOf(input, 'ok'))],
      [failing.file, targetOf((input) => transcriptOf(input, input === 'status' ? 'no' : 'ok'))],
    ])
    const report = await runSuites([clean, failing], { outDir: tempDir(), targets, updateBaseline: { dir } })
    expect(
      report.suiteStats.map(({ suite, baselineWritten, baselineSkipped }) => ({
        suite,
        baselineWritten,
        baselineSkipped,
      })),
    ).toEqual([
      { suite: 'clean', baselineWritten: join(dir, 'clean.json'), baselineSkipped: undefined },
      { suite: 'failing', baselineWritten: undefined, baselineSkipped: '1 failed (`status`)' },
    ])
    expect(existsSync(join(dir, 'failing.json'))).toBe(false)
  })

  test('a known failure (`expect_fail`) does not keep its suite from its baseline', async () => {
    const dir = tempDir()
    const suite = suiteOf(
      [
        caseOf('greet', { expect: { contains: 'ok' } }),
        caseOf('refund', { expect: { contains: 'ok' }, expectFail: 'issue #12: refunds over $100' }),
      ],
      { name: 'known' },
    )
    const target = targetOf((input) => transcriptOf(input, input === 'refund' ? 'no' : 'ok'))
    const report = await runSuite(suite, {
      outDir: tempDir(),
      targets: targetsFor(suite, target),
      updateBaseline: { dir },
    })
    expect(report.suiteStats[0]?.baselineWritten).toBe(join(dir, 'known.json'))
    expect((await readBaseline(join(dir, 'known.json'))).cases[1]).toMatchObject({
      id: 'refund',
      status: 'failed',
    })
    expect([...report.cases][1]).toMatchObject({ id: 'refund', expectFail: 'issue #12: refunds over $100' })
  })

  test("a run's known failures are listed without making every case's stats, in the order of the full list", async () => {
    const marked = suiteOf(
      [
        caseOf('a', { expect: { contains: 'ok' } }),
        caseOf('b', { expect: { contains: 'ok' }, expectFail: 'issue #3' }),
        caseOf('c', { expect: { contains: 'ok' }, expectFail: true, skip: 'later' }),
        caseOf('d', { expect: { contains: 'ok' }, expectFail: true }),
      ],
      { name: 'marked' },
    )
    const plain = suiteOf([caseOf('e', { expect: { contains: 'ok' } })], { name: 'plain' })
    const target = targetOf((input) => transcriptOf(input, input === 'd' ? 'ok' : 'no'))
    const report = await runSuites([plain, marked], {
      outDir: tempDir(),
      targets: targetsFor(plain, target),
    })
    const all = [...report.cases]
    expect(all.map((entry) => entry.id)).toEqual(['e', 'a', 'b', 'c', 'd'])
    expect([...(report.cases.knownFailures?.() ?? [])]).toEqual(
      all.filter((entry) => entry.expectFail !== undefined),
    )
    expect(knownFailuresOf(report.cases)).toEqual({ failed: 1, errored: 0 })
    expect(knownFailuresOf(all)).toEqual({ failed: 1, errored: 0 })
  })

  test("a run's tallies are its cases' suite, status, trials and cost, without making their stats", async () => {
    const broken = suiteOf(
      [
        caseOf('a', { expect: { contains: 'ok' }, trials: 3 }),
        caseOf('b', { expect: { contains: 'ok' }, skip: 'later' }),
        caseOf('c', { expect: { contains: 'ok' } }),
        caseOf('d', { expect: { contains: 'ok' } }),
      ],
      { name: 'broken' },
    )
    const priced = suiteOf([caseOf('e', { expect: { contains: 'ok' } })], { name: 'priced' })
    // a: passes its first trial only (failed, 3 trials); c: the target throws (errored); d: its cost is unknown
    const target = targetOf((input, _signal, trial) => {
      if (input === 'c') throw new Error('down')
      return transcriptOf(input, input === 'a' && trial > 0 ? 'no' : 'ok', {
        costUsd: input === 'd' ? null : 0.25,
      })
    })
    const report = await runSuites([broken, priced], {
      outDir: tempDir(),
      targets: new Map([
        [broken.file, target],
        [priced.file, target],
      ]),
    })
    // the record is reused: copied as it is read
    const tallies = Array.from(report.cases.tallies?.() ?? [], (tally) => ({ ...tally }))
    const fromStats = [...report.cases].map(({ suite, variant, status, costUsd, trials, errored }) => ({
      suite,
      variant,
      status,
      costUsd,
      trials,
      errored,
    }))
    expect(tallies).toEqual(fromStats)
    expect(tallies.map((tally) => [tally.status, tally.costUsd])).toEqual([
      ['failed', 0.25],
      ['skipped', null],
      ['errored', null],
      ['passed', null],
      ['passed', 0.25],
    ])
  })

  test('an update with the same results leaves the baseline byte for byte, timestamps and latencies included', async () => {
    const dir = tempDir()
    const file = join(dir, 'support.json')
    const slow = (latencyMs: number) => targetOf((input) => transcriptOf(input, 'ok', { latencyMs }))
    const suite = support()
    await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, slow(5)), updateBaseline: { dir } })
    const before = readFileSync(file, 'utf8')
    const again = await runSuite(suite, {
      outDir: tempDir(),
      targets: targetsFor(suite, slow(900)),
      updateBaseline: { dir },
    })
    expect(again.suiteStats[0]).toMatchObject({ baselineWritten: file, baselineUnchanged: true })
    expect(readFileSync(file, 'utf8')).toBe(before)
    // a changed result rewrites it; so does --force, which refreshes the latencies
    await run(support(), [], { updateBaseline: { dir, force: true }, targets: targetsFor(suite, slow(900)) })
    expect((await readBaseline(file)).cases[0]?.latencyMs).toBe(900)
  })

  test('one baseline file for several suites is an error; a directory gives each suite its own', async () => {
    const dir = tempDir()
    const a = support({ name: 'a', file: join(dir, 'a.yaml') })
    const b = support({ name: 'b', file: join(dir, 'b.yaml') })
    const target = targetOf((input) => transcriptOf(input, 'ok'))
    const targets = new Map([
      [a.file, target],
      [b.file, target],
    ])
    await runSuites([a, b], { outDir: tempDir(), targets, updateBaseline: { dir } })
    expect(JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'))).toMatchObject({ suite: 'b' })
    await expect(
      runSuites([a, b], { outDir: tempDir(), targets, baseline: { path: join(dir, 'a.json') } }),
    ).rejects.toThrow(
      `\`--baseline ${join(dir, 'a.json')}\` names one baseline file, but the run has 2 suites. Give a directory of \`<suite>.json\` baselines instead, e.g. \`--baseline baselines\`.`,
    )
    const both = await runSuites([a, b], { outDir: tempDir(), targets, baseline: { path: dir } })
    expect(both.comparison).toBeUndefined()
    expect(both.comparisons?.map((entry) => entry.suite)).toEqual(['a', 'b'])
    expect(both.gate?.decision).toBe('pass')
  })
})
