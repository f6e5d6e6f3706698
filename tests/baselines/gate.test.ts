import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { compareToBaseline } from '../../src/baselines/compare.ts'
import { gateOptionsSchema } from '../../src/baselines/gate-options.ts'
import { evaluateGate, floorFor, resolveGateOptions } from '../../src/baselines/gate.ts'
import type { GateOptions } from '../../src/baselines/gate-options.ts'
import type { CaseSummary } from '../../src/baselines/summary.ts'
import { ConfigError } from '../../src/errors.ts'
import { baselineOf, many, meta, run, summary } from './fixtures.ts'

const atCreation = { now: new Date(meta.createdAt) }

/** The gate's decision, reasons and warnings (its minimum detectable drop is tested in compare.test.ts). */
function gate(baselineCases: CaseSummary[], currentCases: CaseSummary[], options: GateOptions = {}) {
  const current = run(currentCases)
  const comparison = compareToBaseline(current, baselineOf(baselineCases), {
    ...atCreation,
    alpha: options.alpha,
  })
  const { decision, reasons, warnings } = evaluateGate(comparison, current, options)
  return { decision, reasons, warnings }
}

describe('evaluateGate', () => {
  test('passes an identical run', () => {
    const cases = [summary('a', 'pass'), summary('b', 'fail', { tags: ['critical'] })]
    expect(gate(cases, cases)).toEqual({ decision: 'pass', reasons: [], warnings: [] })
  })

  test('fails a significant accuracy regression, with the numbers', () => {
    const result = gate(many(20, 'pass'), [...many(6, 'fail'), ...many(20, 'pass').slice(6)])
    expect(result.decision).toBe('fail')
    // one trial a side: the exact McNemar p = ½⁶ = 0.015625 (scipy.stats.binomtest(6, 6, alternative='greater'))
    expect(result.reasons).toEqual([
      'Accuracy fell 30.0 points on 20 paired case(s): 100.0% → 70.0% weighted (6 fell, 0 rose), ' +
        'one-sided paired permutation test p = 0.0156 < α = 0.05.',
    ])
  })

  test('counts weights: a heavy case that fails outweighs light ones that improve', () => {
    // the run printed `Accuracy 25.0% weighted`, `Delta 100% → 50%` and still `Gate PASS`
    const lights = ['l1', 'l2', 'l3']
    const before = [summary('heavy', [5, 5]), ...lights.map((id) => summary(id, [1, 5]))]
    const after = (weight: number) => [
      summary('heavy', [0, 5], { weight }),
      ...lights.map((id) => summary(id, [3, 5])),
    ]
    const weighted = gate(before, after(10))
    expect(weighted.decision).toBe('fail')
    // (10 · 1 + 3 · 0.2) / 13 = 81.5% → (10 · 0 + 3 · 0.6) / 13 = 13.8%
    expect(weighted.reasons).toEqual([
      expect.stringMatching(
        /^Accuracy fell 67\.7 points on 4 paired case\(s\): 81\.5% → 13\.8% weighted \(1 fell, 3 rose\)/,
      ),
    ])
    // unweighted, the same run went up: 40.0% → 45.0%
    expect(gate(before, after(1)).decision).toBe('pass')
  })

  test('lets a regression through when it is within noise', () => {
    const result = gate(many(20, 'pass'), [...many(1, 'fail'), ...many(20, 'pass').slice(1)])
    expect(result).toEqual({ decision: 'pass', reasons: [], warnings: [] })
  })

  test('uses the configured α', () => {
    const baseline = many(20, 'pass')
    const current = [...many(4, 'fail'), ...many(20, 'pass').slice(4)]
    expect(gate(baseline, current).decision).toBe('pass')
    expect(gate(baseline, current, { alpha: 0.1 }).decision).toBe('fail')
  })

  test('fails a critical case whose drop is significant over its trials (Fisher’s exact test)', () => {
    // a nightly baseline at 10 trials, a PR run at 3; scipy.stats.fisher_exact([[1, 2], [10, 0]], 'less') = 0.0385
    const result = gate(
      [summary('refund', [10, 10], { tags: ['billing', 'critical'] }), summary('greet', [10, 10])],
      [summary('refund', [1, 3], { tags: ['billing', 'critical'] }), summary('greet', [3, 3])],
    )
    expect(result.reasons).toContain(
      'Critical case `refund` dropped: 10/10 → 1/3 trials passed (tagged `critical`), one-sided Fisher exact test ' +
        'p = 0.0385 < α = 0.05.',
    )
  })

  test('lets a critical case’s drop through when its trials could have shown it and did not', () => {
    // 9/10 → 2/3 happens to an unchanged case at 90%; fisher_exact([[2, 1], [9, 1]], 'less') = 0.41
    const result = gate(
      [summary('refund', [9, 10], { critical: {} })],
      [summary('refund', [2, 3], { critical: {} })],
    )
    expect(result).toEqual({ decision: 'pass', reasons: [], warnings: [] })
  })

  test('warns, saying why, when one trial cannot tell a critical case’s flip from noise', () => {
    const result = gate(
      [summary('refund', 'pass', { tags: ['critical'] }), summary('greet', 'pass')],
      [summary('refund', 'fail', { tags: ['critical'] }), summary('greet', 'pass')],
    )
    expect(result).toEqual({
      decision: 'warn',
      reasons: [],
      warnings: [
        "Critical case `refund` dropped: 1/1 → 0/1 trials passed (tagged `critical`), but 1 trial(s) against the baseline's 1 " +
          'cannot tell a drop from noise (even 0/1 gives p = 0.5000 ≥ α = 0.05). Run more trials, give it a floor with ' +
          '`critical: { min_pass_rate: … }`, or set `strict_critical: true` to fail on any drop.',
      ],
    })
  })

  test('fails any drop of a critical case with `strict_critical`', () => {
    const result = gate(
      [summary('refund', 'pass', { critical: {} })],
      [summary('refund', 'fail', { critical: {} })],
      {
        strict_critical: true,
      },
    )
    expect(result.reasons).toEqual([
      'Critical case `refund` dropped: 1/1 → 0/1 trials passed (`critical`; `strict_critical` fails any drop).',
    ])
  })

  test('takes critical tags from the options', () => {
    const before = [summary('refund', [10, 10], { tags: ['p0'] })]
    const after = [summary('refund', [0, 3], { tags: ['p0'] })]
    expect(gate(before, after).reasons.filter((reason) => reason.startsWith('Critical'))).toEqual([])
    expect(gate(before, after, { critical_tags: ['p0'] }).reasons).toContain(
      'Critical case `refund` dropped: 10/10 → 0/3 trials passed (tagged `p0`), one-sided Fisher exact test ' +
        'p = 0.0035 < α = 0.05.',
    )
  })

  test('fails a critical case below its own floor, with or without a baseline', () => {
    const current = run([summary('refund', [2, 3], { critical: { minPassRate: 0.9 } })])
    expect(evaluateGate(null, current).reasons).toEqual([
      'Critical case `refund` passed 2/3 trials (66.7%), below its `min_pass_rate` of 90.0%.',
    ])
  })

  test('warns that a suite without its baseline ran ungated', () => {
    const result = evaluateGate(
      null,
      run([summary('a', 'pass')]),
      {},
      { missingBaseline: 'baselines/support.json' },
    )
    expect(result).toEqual({
      decision: 'warn',
      reasons: [],
      warnings: [
        'No baseline at `baselines/support.json`, so this suite ran ungated (only floors apply). Create it with ' +
          '`evals run <case-file> --update-baseline`; `--baseline-missing error` makes a missing baseline stop the run.',
      ],
    })
  })

  test('fails a case below its pass-rate floor, even without a baseline', () => {
    const current = run([summary('flaky', [3, 5]), summary('solid', [5, 5])])
    expect(evaluateGate(null, current, { min_pass_rate: 0.8 })).toEqual({
      decision: 'fail',
      reasons: ['Case `flaky` passed 3/5 trials (60.0%), below its `min_pass_rate` of 80.0%.'],
      warnings: [],
    })
  })

  test('warns when a case with a floor has no verdict', () => {
    const current = run([
      summary('down', [0, 0], { status: 'errored' }),
      summary('off', [0, 0], { status: 'skipped' }),
    ])
    expect(evaluateGate(null, current, { min_pass_rate: 0.5 })).toEqual({
      decision: 'warn',
      reasons: [],
      warnings: [
        'Case `down` has a `min_pass_rate` of 50.0% but no trial reached a verdict (status `errored`).',
      ],
    })
  })

  test('fails latency and cost ratios over their limits', () => {
    const before = [100, 200, 300, 400].map((ms, i) => summary(`c${i}`, 'pass', { latencyMs: ms }))
    const after = [150, 300, 450, 1200].map((ms, i) =>
      summary(`c${i}`, 'pass', { latencyMs: ms, costUsd: 0.002 }),
    )
    expect(gate(before, after, { max_latency_ratio: 2, max_cost_ratio: 1.5 }).reasons).toEqual([
      'p95 latency rose 2.82× (385 ms → 1087 ms over 4 shared case(s)), over `max_latency_ratio` 2.',
      'Cost rose 2.00× ($0.0040 → $0.0080 per trial over 4 shared case(s)), over `max_cost_ratio` 1.5.',
    ])
    expect(gate(before, after, { max_latency_ratio: 1.2 }).reasons).toEqual([
      'Median (p50) latency rose 1.50× (250 ms → 375 ms over 4 shared case(s)), over `max_latency_ratio` 1.2.',
      'p95 latency rose 2.82× (385 ms → 1087 ms over 4 shared case(s)), over `max_latency_ratio` 1.2.',
    ])
  })

  test('warns, without failing, when the comparison is doubtful', () => {
    const current = run([summary('a', 'pass')], { modelId: 'openai:gpt-4.1' })
    const comparison = compareToBaseline(current, baselineOf([summary('a', 'pass')]), atCreation)
    const result = evaluateGate(comparison, current)
    expect(result.decision).toBe('warn')
    expect(result.warnings).toEqual(comparison.warnings)
    expect(evaluateGate(comparison, current, { fail_on_warnings: true })).toMatchObject({
      decision: 'fail',
      reasons: ['1 warning(s) fail the gate because `fail_on_warnings` is true.'],
      warnings: comparison.warnings,
    })
  })

  test('never fails an identical run, whatever the options without floors', () => {
    const entry = fc.record({
      trials: fc.integer({ min: 0, max: 5 }),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      tags: fc.subarray(['critical', 'billing', 'p0']),
      latencyMs: fc.double({ min: 0, max: 10_000, noNaN: true }),
      costUsd: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    })
    const options = fc.record(
      {
        alpha: fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        critical_tags: fc.subarray(['critical', 'billing', 'p0']),
        max_latency_ratio: fc.double({ min: 1, max: 5, noNaN: true }),
        max_cost_ratio: fc.double({ min: 1, max: 5, noNaN: true }),
        max_baseline_age_days: fc.double({ min: 1, max: 365, noNaN: true }),
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), options, (entries, gateOptions) => {
        const cases = entries.map(({ trials, share, ...extra }, i) =>
          summary(`case-${i}`, [Math.round(share * trials), trials], extra),
        )
        expect(gate(cases, cases, gateOptions)).toEqual({ decision: 'pass', reasons: [], warnings: [] })
      }),
    )
  })

  test('fails a critical case that flips from pass to fail whenever its trials can show it, else warns', () => {
    const other = fc.record({
      trials: fc.integer({ min: 1, max: 5 }),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      improve: fc.boolean(),
    })
    fc.assert(
      fc.property(
        fc.array(other, { maxLength: 30 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        (others, baselineTrials, trials, alpha) => {
          const before = others.map(({ trials: n, share }, i) =>
            summary(`case-${i}`, [Math.round(share * n), n]),
          )
          const after = others.map(({ trials: n, share, improve }, i) =>
            summary(`case-${i}`, [improve ? n : Math.round(share * n), n]),
          )
          before.push(summary('critical-case', [baselineTrials, baselineTrials], { tags: ['critical'] }))
          after.push(summary('critical-case', [0, trials], { tags: ['critical'] }))
          const result = gate(before, after, { alpha })
          // Fisher's one-sided p of n/n → 0/m is C(n+m, m)⁻¹: only the all-fail split is as extreme
          let p = 1
          for (let i = 1; i <= trials; i++) p *= i / (baselineTrials + i)
          const moved = `${baselineTrials}/${baselineTrials} → 0/${trials} trials passed (tagged \`critical\`)`
          if (p < alpha) {
            expect(result.decision).toBe('fail')
            expect(
              result.reasons.some((reason) =>
                reason.startsWith(`Critical case \`critical-case\` dropped: ${moved}`),
              ),
            ).toBe(true)
          } else {
            expect(
              result.warnings.some((warning) =>
                warning.startsWith(`Critical case \`critical-case\` dropped: ${moved}`),
              ),
            ).toBe(true)
          }
        },
      ),
    )
  })
})

describe('floorFor', () => {
  const floors = { default: 0.5, tags: { billing: 0.7, critical: 0.9 }, cases: { refund: 0.6 } }

  test('takes the case entry first, then the highest tag floor, then the default', () => {
    expect(floorFor({ id: 'refund', tags: ['critical'] }, floors)).toBe(0.6)
    expect(floorFor({ id: 'cancel', tags: ['billing', 'critical'] }, floors)).toBe(0.9)
    expect(floorFor({ id: 'greet', tags: [] }, floors)).toBe(0.5)
    expect(floorFor({ id: 'greet', tags: [] }, { tags: { billing: 0.7 } })).toBeUndefined()
  })

  test('applies a plain number to every case', () => {
    expect(floorFor({ id: 'greet', tags: [] }, 0.8)).toBe(0.8)
  })
})

describe('resolveGateOptions', () => {
  test('applies the defaults', () => {
    expect(resolveGateOptions({})).toEqual({
      alpha: 0.05,
      critical_tags: ['critical'],
      strict_critical: false,
      fail_on_warnings: false,
    })
  })

  test('lists every bad field with its path', () => {
    expect(() =>
      resolveGateOptions({ alpha: 5, min_pass_rate: { tags: { billing: 1.5 } }, max_cost_ratio: 0.5 }),
    ).toThrow(
      new ConfigError(
        'Invalid gate options:\n' +
          '  gate.alpha: Too big: expected number to be <1\n' +
          '  gate.min_pass_rate.tags.billing: Too big: expected number to be <=1\n' +
          '  gate.max_cost_ratio: Too small: expected number to be >=1',
      ),
    )
  })

  test('rejects unknown keys with a suggestion, so a typo does not silently disable a check', () => {
    expect(() => resolveGateOptions({ max_latency: 2 } as GateOptions)).toThrow(
      new ConfigError(
        'Invalid gate options:\n' +
          '  gate: unknown key "max_latency" (did you mean `max_latency_ratio`?). Known keys: alpha, critical_tags, ' +
          'strict_critical, min_pass_rate, max_latency_ratio, max_cost_ratio, max_baseline_age_days, fail_on_warnings, require_judges.',
      ),
    )
    expect(gateOptionsSchema.safeParse({ max_latency: 2 }).success).toBe(false)
  })
})
