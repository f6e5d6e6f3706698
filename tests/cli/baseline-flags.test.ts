import { describe, expect, test } from 'vitest'
import { EXIT, exitCodeOf, outcomeLine, type ExitReport } from '../../src/cli/exit-code.ts'
import { parseRunFlags } from '../../src/cli/options.ts'

describe('baseline and gate flags of `evals run`', () => {
  test('reads --update-baseline, --baseline-dir, --baseline, --baseline-missing and the gate flags', () => {
    expect(parseRunFlags(['a.yaml', '--update-baseline', '--baseline-dir', 'snapshots'])).toMatchObject({
      updateBaseline: true,
      forceBaseline: false,
      baselineDir: 'snapshots',
    })
    expect(parseRunFlags(['a.yaml', '--update-baseline', '--force'])).toMatchObject({ forceBaseline: true })
    expect(
      parseRunFlags([
        'a.yaml',
        '--baseline',
        'baselines',
        '--baseline-missing',
        'ok',
        '--alpha',
        '0.01',
        '--max-latency-ratio',
        '1.5',
        '--max-cost-ratio',
        '2',
      ]),
    ).toMatchObject({
      baseline: 'baselines',
      baselineMissing: 'ok',
      gate: { alpha: 0.01, max_latency_ratio: 1.5, max_cost_ratio: 2 },
    })
  })

  test('defaults: no baseline, writes go to baselines/, a missing baseline leaves its suite ungated, no gate flags', () => {
    const flags = parseRunFlags(['a.yaml'])
    expect(flags).toMatchObject({
      updateBaseline: false,
      baselineDir: 'baselines',
      baselineMissing: 'ok',
      gate: {},
    })
    expect(flags).not.toHaveProperty('baseline')
  })

  test.each([
    [
      ['--baseline', 'b', '--alpha', '1'],
      'evals run: `--alpha` must be a number between 0 and 1 (exclusive), got "1".',
    ],
    [
      ['--baseline', 'b', '--alpha', 'low'],
      'evals run: `--alpha` must be a number between 0 and 1 (exclusive), got "low".',
    ],
    [
      ['--baseline', 'b', '--max-latency-ratio', '0.5'],
      'evals run: `--max-latency-ratio` must be a number of at least 1, got "0.5".',
    ],
    [
      ['--baseline', 'b', '--max-cost-ratio', ''],
      'evals run: `--max-cost-ratio` must be a number of at least 1, got "".',
    ],
    [
      ['--baseline', 'b', '--baseline-missing', 'yes'],
      'evals run: `--baseline-missing` must be `ok` or `error`, got "yes".',
    ],
    [
      ['--baseline-missing', 'ok'],
      'evals run: `--baseline-missing` only applies with `--baseline <dir|file>`, e.g. `--baseline baselines`.',
    ],
    [
      ['--alpha', '0.1'],
      'evals run: `--alpha` only applies with `--baseline <dir|file>`, e.g. `--baseline baselines`.',
    ],
    [
      ['--baseline-dir', 'x'],
      'evals run: `--baseline-dir` only applies with `--update-baseline`; to compare with a baseline, use `--baseline <dir|file>`.',
    ],
    [
      ['--force'],
      'evals run: `--force` only applies with `--update-baseline` (to write a baseline from a run with failing cases).',
    ],
    [
      ['--update-baseline', '--tag', 'billing'],
      'evals run: `--update-baseline` writes whole suites, so it cannot be combined with `--filter` or `--tag`; run the whole case file to update its baseline.',
    ],
    [
      ['--baselin', 'b'],
      'evals run: unknown option `--baselin`. Did you mean `--baseline`? Run `evals run --help` for the options.',
    ],
  ])('rejects %j with an exact message', (args, message) => {
    expect(() => parseRunFlags(['a.yaml', ...args])).toThrow(message)
  })
})

describe('exit codes', () => {
  const counts = (failed: number, errored: number) => ({ passed: 3, failed, errored, skipped: 0 })
  const gate = (decision: 'pass' | 'warn' | 'fail') => ({ decision, reasons: [], warnings: [] })

  test('0 when everything passed, and when the gate only warns', () => {
    expect(exitCodeOf({ counts: counts(0, 0) })).toBe(EXIT.ok)
    expect(exitCodeOf({ counts: counts(0, 0), gate: gate('warn') })).toBe(0)
  })

  test('1 when a case failed or the gate failed, even with errored cases', () => {
    expect(exitCodeOf({ counts: counts(1, 0) })).toBe(EXIT.failed)
    expect(exitCodeOf({ counts: counts(1, 2) })).toBe(1)
    expect(exitCodeOf({ counts: counts(0, 0), gate: gate('fail') })).toBe(1)
    expect(exitCodeOf({ counts: counts(0, 1), gate: gate('fail') })).toBe(1)
  })

  test('2 when cases only errored: an infrastructure failure, not a quality one', () => {
    expect(exitCodeOf({ counts: counts(0, 1) })).toBe(EXIT.couldNotRun)
    expect(exitCodeOf({ counts: counts(0, 1), gate: gate('pass') })).toBe(2)
  })

  test('`--fail-on regression` exits 1 only on a failed gate, still 2 on errored cases', () => {
    expect(exitCodeOf({ counts: counts(3, 0) }, 'regression')).toBe(0)
    expect(exitCodeOf({ counts: counts(3, 0), gate: gate('fail') }, 'regression')).toBe(1)
    expect(exitCodeOf({ counts: counts(3, 1) }, 'regression')).toBe(2)
  })

  test('`--fail-on never` exits 0 whatever happened, unless no case ran', () => {
    expect(exitCodeOf({ counts: counts(3, 1), gate: gate('fail') }, 'never')).toBe(0)
    expect(exitCodeOf({ counts: { passed: 0, failed: 0, errored: 0, skipped: 2 } }, 'never')).toBe(2)
  })

  test('known failures (`expect_fail`) fail nothing', () => {
    // what the exit code reads of a case: its passes, trials, errored trials and `expect_fail`
    const known = { passes: 0, trials: 2, errored: 0, expectFail: true }
    const cases = [known] as unknown as NonNullable<ExitReport['cases']>
    expect(exitCodeOf({ counts: counts(2, 0), cases })).toBe(0)
    expect(outcomeLine({ counts: counts(2, 0), cases })).toBe(
      'Outcome   passed: 3 case runs passed; 2 known failures (`expect_fail`) did not pass, as expected → exit 0 (`--fail-on failure`)',
    )
    expect(exitCodeOf({ counts: counts(3, 0), cases })).toBe(1)
  })

  test('the outcome line says which happened and the exit code it gives', () => {
    expect(outcomeLine({ counts: counts(2, 0), gate: gate('pass') }, 'regression')).toBe(
      'Outcome   failed: 2 case runs failed → exit 0 (`--fail-on regression`: fails only on a failed gate or errored cases)',
    )
    expect(
      outcomeLine({ counts: counts(0, 0), gate: { decision: 'fail', reasons: ['a', 'b'], warnings: [] } }),
    ).toBe('Outcome   regressed: the gate failed (2 reasons) → exit 1 (`--fail-on failure`)')
    expect(outcomeLine({ counts: counts(0, 0) })).toBe(
      'Outcome   passed: all 3 case runs passed → exit 0 (`--fail-on failure`)',
    )
  })

  test('130 when interrupted, whatever else happened', () => {
    expect(exitCodeOf({ counts: counts(1, 1), gate: gate('fail'), stoppedBy: 'interrupt' })).toBe(130)
    expect(exitCodeOf({ counts: counts(1, 0), stoppedBy: 'bail' })).toBe(1)
  })
})
