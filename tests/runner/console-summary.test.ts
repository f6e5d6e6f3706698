import { describe, expect, test } from 'vitest'
import { formatSummary } from '../../src/reporters/console.ts'
import { makeStyle } from '../../src/reporters/format.ts'
import type { RunReport } from '../../src/model/run-report.ts'
import { runSuite, type RunOptions } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

const suite = suiteOf(
  [
    caseOf('always', { trials: 3, expect: { contains: 'ok' } }),
    caseOf('flaky-one', { trials: 3, expect: { contains: 'ok' }, tags: ['critical'] }),
    caseOf('broken', { trials: 3, expect: { contains: 'ok' } }),
  ],
  { name: 'support' },
)

/** `always` passes, `flaky-one` fails the trials listed, `broken` never passes. */
function run(flakyFails: readonly number[], options: RunOptions = {}): Promise<RunReport> {
  const target = targetOf((input, _signal, trial) => {
    const pass = input === 'always' || (input === 'flaky-one' && !flakyFails.includes(trial))
    return transcriptOf(input, pass ? 'ok' : 'no')
  })
  return runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target), ...options })
}

/** The summary without problems and the lines that change run to run. */
function stable(report: RunReport): string {
  return formatSummary({ ...report, problems: [] }, makeStyle(false))
    .split('\n')
    .filter((line) => !/^(Latency|Tokens|Cost|Duration|Results|Ratios) /.test(line))
    .join('\n')
    .replace(/taken \S+ \(today\)/, 'taken <time> (today)')
}

describe('console summary with trials and a baseline', () => {
  test('shows the accuracy interval, flaky cases and each case over its trials', async () => {
    expect(stable(await run([1]))).toBe(`
Runs      5 passed · 4 failed · 0 errored · 0 skipped (3 cases, up to 3 trials each)
Accuracy  55.6% weighted ± 28.7 (SE) · 95% CI 15.1–89.8% over 3 cases
Flaky     1 case: flaky-one 2/3
Per case  passes/trials · pass rate · pass@k and pass^k with k = trials
  ✓ always       3/3 100%  pass@3 1.00 · pass^3 1.00
  ~ flaky-one    2/3  67%  pass@3 1.00 · pass^3 0.00 flaky
  ✗ broken       0/3   0%  pass@3 0.00 · pass^3 0.00
`)
  })

  test('shows the comparison, the accuracy delta with its test, what it can detect, and the gate', async () => {
    const dir = tempDir()
    await run([], { updateBaseline: { dir, force: true } })
    const text = stable(await run([0, 2], { baseline: { path: dir } }))
    // flaky-one holds 4 passes in 6 trials; P(1 or fewer of them in the 3 current ones) = 4/20; the null is
    // symmetric about its mean (2 of 3), so the two-sided p is twice that. 3/3 → 0/3 would give 1/20, not below
    // α = 0.05, so three trials a side cannot show a critical drop, and the gate says so.
    // Power: pooled variances 0.0663 (6/6 and 0/6, p taken at 6.5/7), 8/30 (4/6); SE² = Σσ²(1/3 + 1/3) / 3² =
    // 0.02958; (z₀.₉₅ + z₀.₈) · SE = 2.4865 · 0.17199 = 0.428
    expect(text).toContain(`
Compared  1 regressed · 0 improved · 2 unchanged · 0 new · 0 removed
  ↓ flaky-one 3/3 → 1/3 [critical]
Delta     accuracy -22.2 points (66.7% → 44.4%, weighted) on 3 paired cases · paired permutation test p = 0.4000 (one-sided for a regression: p = 0.2000)
Power     detects drops of ≥ 42.8 points at 80% power (α = 0.05; 3 cases, 3 trials each); add trials or cases to see smaller ones
Gate      WARN
  ! Critical case \`flaky-one\` dropped: 3/3 → 1/3 trials passed (tagged \`critical\`), but 3 trial(s) against the baseline's 3 cannot tell a drop from noise (even 0/3 gives p = 0.0500 ≥ α = 0.05). Run more trials, give it a floor with \`critical: { min_pass_rate: … }\`, or set \`strict_critical: true\` to fail on any drop.
`)
  })
})
