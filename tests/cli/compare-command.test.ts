import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { baselineCommand } from '../../src/cli/baseline-command.ts'
import { compareCommand } from '../../src/cli/compare-command.ts'
import type { Suite } from '../../src/cases/suite.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from '../runner/helpers.ts'

let stdout = ''
let stderr = ''

beforeEach(() => {
  stdout = ''
  stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk)
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk)
    return true
  })
})

afterEach(() => {
  vi.restoreAllMocks()
})

const suite: Suite = suiteOf(
  [
    caseOf('greet', { expect: { contains: 'ok' } }),
    caseOf('refund', { expect: { contains: 'ok' }, tags: ['critical'], trials: 4 }),
  ],
  { name: 'support' },
)

/** Runs the suite (answering `no` to the broken inputs) and returns its run directory. */
async function runWith(
  broken: readonly string[],
  options: { updateBaseline?: { dir: string; force?: boolean } } = {},
) {
  const target = targetOf((input) => transcriptOf(input, broken.includes(input) ? 'no' : 'ok'))
  const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target), ...options })
  return report.dir
}

describe('evals compare', () => {
  test('passes an identical run (exit 0) and prints the comparison and the gate', async () => {
    const baselines = tempDir()
    await runWith([], { updateBaseline: { dir: baselines } })
    const run = await runWith([])
    const code = await compareCommand.main([run, join(baselines, 'support.json'), '--no-color'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain(`Run       ${join(run, 'summary.json')} · suite support\n`)
    expect(stdout).toContain('Compared  0 regressed · 0 improved · 2 unchanged · 0 new · 0 removed\n')
    expect(stdout).toContain(
      'Delta     accuracy 0.0 points (100.0% → 100.0%, weighted) on 2 paired cases · paired permutation test p = 1.0000',
    )
    expect(stdout).toMatch(/Gate {6}PASS\n$/)
  })

  test('fails a run where a critical case regressed (exit 1), naming the case', async () => {
    const baselines = tempDir()
    await runWith([], { updateBaseline: { dir: baselines } })
    const run = await runWith(['refund'])
    const code = await compareCommand.main([
      join(run, 'summary.json'),
      join(baselines, 'support.json'),
      '--no-color',
    ])
    expect(code).toBe(1)
    expect(stdout).toContain('  ↓ refund 4/4 → 0/4 [critical]\n')
    // scipy.stats.fisher_exact([[0, 4], [4, 0]], alternative='less') = 1/70 = 0.0143
    expect(stdout).toContain(
      '  ✗ Critical case `refund` dropped: 4/4 → 0/4 trials passed (tagged `critical`), ' +
        'one-sided Fisher exact test p = 0.0143 < α = 0.05.\n',
    )
  })

  test('exits 2 with a message naming the file when an input is missing or not a summary', async () => {
    const dir = tempDir()
    expect(await compareCommand.main([join(dir, 'nope'), join(dir, 'b.json')])).toBe(2)
    expect(stderr).toBe(
      `evals compare: \`${join(dir, 'nope')}\` does not exist. Give a \`reports/<run-id>\` directory or its summary.json.\n`,
    )
    stderr = ''
    writeFileSync(join(dir, 'summary.json'), '{"counts": {}}')
    const baselines = tempDir()
    await runWith([], { updateBaseline: { dir: baselines } })
    expect(await compareCommand.main([dir, join(baselines, 'support.json')])).toBe(2)
    expect(stderr).toBe(
      `evals compare: \`${join(dir, 'summary.json')}\` has no per-case summaries (\`suiteStats\` and \`cases\`); it is not an evals run summary, or an older evals wrote it. Run the suite again with \`evals run\`.\n`,
    )
    stderr = ''
    const run = await runWith([])
    expect(await compareCommand.main([run, join(dir, 'missing.json')])).toBe(2)
    expect(stderr).toBe(
      `Baseline file \`${join(dir, 'missing.json')}\` does not exist. Create it with \`evals run <case-file> --update-baseline\`.\n`,
    )
  })

  test('needs exactly a run and a baseline', async () => {
    expect(await compareCommand.main(['only-one'])).toBe(2)
    expect(stderr).toBe(
      'evals compare: give a run and a baseline, e.g. `evals compare reports/<run-id> baselines/quickstart.json`, ' +
        'or two runs, e.g. `evals compare reports/<run-id> reports/<earlier-run-id>`.\n',
    )
  })
})

describe('evals compare <run> <run>', () => {
  test('compares two runs with the same paired statistics and gate as a baseline would', async () => {
    const before = await runWith([])
    const after = await runWith(['refund'])
    const code = await compareCommand.main([after, before, '--no-color'])
    expect(stderr).toBe('')
    expect(code).toBe(1)
    expect(stdout).toContain(`Run       ${join(after, 'summary.json')} · suite support\n`)
    expect(stdout).toContain('Compared  1 regressed · 0 improved · 1 unchanged · 0 new · 0 removed\n')
    expect(stdout).toContain('  ↓ refund 4/4 → 0/4 [critical]\n')
    expect(stdout).toContain('Critical case `refund` dropped: 4/4 → 0/4 trials passed (tagged `critical`)')
  })

  test('gives the same comparison whether the reference is the run or the baseline written from it', async () => {
    const baselines = tempDir()
    const before = await runWith(['greet'], { updateBaseline: { dir: baselines, force: true } })
    const after = await runWith(['refund'])
    await compareCommand.main([after, join(baselines, 'support.json'), '--no-color'])
    const withBaseline = stdout.split('\n').slice(2)
    stdout = ''
    await compareCommand.main([after, join(before, 'summary.json'), '--no-color'])
    expect(stdout.split('\n').slice(2)).toEqual(withBaseline)
  })

  test('exits 2 when the two runs share no suite', async () => {
    const run = await runWith([])
    const otherSuite = suiteOf([caseOf('x', { expect: { contains: 'ok' } })], { name: 'other' })
    const target = targetOf((input) => transcriptOf(input, 'ok'))
    const other = await runSuite(otherSuite, { outDir: tempDir(), targets: targetsFor(otherSuite, target) })
    expect(await compareCommand.main([run, other.dir])).toBe(2)
    expect(stderr).toBe(
      `evals compare: the runs in \`${join(run, 'summary.json')}\` and \`${join(other.dir, 'summary.json')}\` share no suite; compare two runs of the same case file.\n`,
    )
  })
})

describe('evals baseline show', () => {
  test('prints the suite, commit, target and one line per case', async () => {
    const baselines = tempDir()
    await runWith(['greet'], { updateBaseline: { dir: baselines, force: true } })
    const file = join(baselines, 'support.json')
    expect(await baselineCommand.main(['show', file, '--no-color'])).toBe(0)
    expect(stdout).toContain(`Baseline  support · ${file} · schemaVersion 1\n`)
    expect(stdout).toContain('Target    test:target\n')
    expect(stdout).toContain(
      'Cases     2: 1 passed · 1 failed · 0 errored · 0 skipped · mean pass rate 50.0%\n',
    )
    expect(stdout).toContain('  ✗ greet     0/1 · 1ms · cost unknown\n')
    expect(stdout).toContain('  ✓ refund    4/4 · 1ms · cost unknown [critical]\n')
  })

  test('exits 2 on an unknown action or a corrupt file', async () => {
    expect(await baselineCommand.main(['update', 'x.json'])).toBe(2)
    expect(stderr).toBe(
      'evals baseline: unknown action `update`; the only one is `show`, e.g. `evals baseline show baselines/quickstart.json`. Baselines are written by `evals run <case-file> --update-baseline`.\n',
    )
    stderr = ''
    const file = join(tempDir(), 'broken.json')
    writeFileSync(file, '[]')
    expect(await baselineCommand.main(['show', file])).toBe(2)
    expect(stderr).toBe(
      `Baseline file \`${file}\` does not match the baseline format:\n  (root): Invalid input: expected object, received array\nFix these fields, or recreate it with \`evals run <case-file> --update-baseline\`.\n`,
    )
  })
})
