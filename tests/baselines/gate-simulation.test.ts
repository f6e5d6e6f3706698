import { describe, expect, test } from 'vitest'
import { compareToBaseline } from '../../src/baselines/compare.ts'
import { evaluateGate } from '../../src/baselines/gate.ts'
import type { CaseSummary } from '../../src/baselines/summary.ts'
import { seededRandom, type Random } from '../../src/stats/random.ts'
import { baselineOf, meta, run, summary } from './fixtures.ts'

/*
 * The scenario of issue 27, simulated at the level of the statistics (the gate's own code on per-case pass counts,
 * no runner): a 40-case suite, 30 cases passing 95% of their trials, 6 at 80%, 4 at 60%; five of the 95% cases are
 * critical and never change. A nightly baseline runs 10 trials a case; each PR run (1, 3 or 5 trials) is gated
 * against a baseline drawn with another seed. Fixed seeds: the rates below are the same on every machine.
 */

const ALPHA = 0.05
const BASELINE_TRIALS = 10
const RATES = [...Array<number>(30).fill(0.95), ...Array<number>(6).fill(0.8), ...Array<number>(4).fill(0.6)]
const CRITICAL = new Set([0, 1, 2, 3, 4])
/** six non-critical cases fall from 95% to 15%: about −12 points of accuracy */
const DROP_12 = RATES.map((rate, i) => (i >= 5 && i < 11 ? 0.15 : rate))
/** three fall from 95% to 30%: about −5 points */
const DROP_5 = RATES.map((rate, i) => (i >= 5 && i < 8 ? 0.3 : rate))

function passes(random: Random, trials: number, rate: number): number {
  let count = 0
  for (let i = 0; i < trials; i++) if (random() < rate) count++
  return count
}

function draw(random: Random, rates: readonly number[], trials: number): CaseSummary[] {
  return rates.map((rate, i) =>
    summary(`case-${String(i).padStart(2, '0')}`, [passes(random, trials, rate), trials], {
      ...(CRITICAL.has(i) && { tags: ['critical'] }),
    }),
  )
}

interface Cell {
  /** share of pairs the gate failed */
  fail: number
  /** share failed by the accuracy test */
  byStatistics: number
  /** share failed by a critical case's own test */
  byCritical: number
  /** mean minimum detectable drop reported */
  mde: number
}

/** `pairs` seeded (baseline, run) pairs: the baseline at 10 trials from `truth = RATES`, the run from `truth`. */
function simulate(truth: readonly number[], trials: number, pairs: number, seed: number): Cell {
  let fail = 0
  let byStatistics = 0
  let byCritical = 0
  let mde = 0
  for (let pair = 0; pair < pairs; pair++) {
    const baseline = baselineOf(draw(seededRandom(seed + 2 * pair), RATES, BASELINE_TRIALS))
    const current = run(draw(seededRandom(seed + 2 * pair + 1), truth, trials))
    // the bootstrap interval is for the report; the decision reads only the test, so a few resamples do here
    const comparison = compareToBaseline(current, baseline, {
      now: new Date(meta.createdAt),
      alpha: ALPHA,
      bootstrap: { resamples: 50 },
    })
    const gate = evaluateGate(comparison, current, { alpha: ALPHA })
    if (gate.decision === 'fail') fail++
    if (gate.reasons.some((reason) => reason.startsWith('Accuracy fell'))) byStatistics++
    if (gate.reasons.some((reason) => reason.startsWith('Critical case'))) byCritical++
    mde += gate.minimumDetectableDrop ?? Number.NaN
  }
  return {
    fail: fail / pairs,
    byStatistics: byStatistics / pairs,
    byCritical: byCritical / pairs,
    mde: mde / pairs,
  }
}

describe('the gate on the issue’s scenario (nightly baseline at 10 trials, PR runs at 1, 3 and 5)', () => {
  const NULL_PAIRS = 300
  const DROP_PAIRS = 100

  test.each([1, 3, 5])(
    'flags at most a tenth of unchanged runs at %i trial(s), critical cases included',
    (trials) => {
      const cell = simulate(RATES, trials, NULL_PAIRS, 1000 * trials)
      // the accuracy test alone: an exact test, so at most α, give or take the Monte Carlo error of 300 pairs
      // (2 standard errors, √(0.05 · 0.95 / 300) ≈ 0.0126 each)
      expect(cell.byStatistics).toBeLessThanOrEqual(ALPHA + 2 * Math.sqrt((ALPHA * (1 - ALPHA)) / NULL_PAIRS))
      expect(cell.fail).toBeLessThanOrEqual(0.1)
    },
  )

  test('catches the 12-point drop in at least 70% of pairs at 3 trials, and more with more trials', () => {
    const at = [1, 3, 5].map((trials) => simulate(DROP_12, trials, DROP_PAIRS, 50_000 + 1000 * trials))
    expect(at[1]?.byStatistics).toBeGreaterThanOrEqual(0.7)
    // more trials buy power (the sign test it replaces caught 29% / 29% / 27%)
    expect(at[0]?.byStatistics).toBeLessThan(at[1]?.byStatistics ?? 0)
    expect(at[1]?.byStatistics).toBeLessThanOrEqual(at[2]?.byStatistics ?? 0)
  })

  test('catches a drop spread over every case as large as the reported minimum detectable drop about 80% of the time', () => {
    // the MDE the gate reports for unchanged runs at 3 trials, then a drop of that size taken off every case
    const mde = simulate(RATES, 3, 40, 90_000).mde
    expect(mde).toBeGreaterThan(0.06)
    expect(mde).toBeLessThan(0.09)
    const spread = RATES.map((rate, i) => (CRITICAL.has(i) ? rate : rate - (mde * 40) / 35))
    const caught = simulate(spread, 3, DROP_PAIRS, 95_000).byStatistics
    expect(caught).toBeGreaterThan(0.65)
    expect(caught).toBeLessThan(0.95)
  })

  test('sees the 5-point drop less often than the 12-point one, as its minimum detectable drop says', () => {
    const five = simulate(DROP_5, 3, DROP_PAIRS, 70_000)
    const twelve = simulate(DROP_12, 3, DROP_PAIRS, 80_000)
    expect(five.byStatistics).toBeGreaterThan(0.1)
    expect(five.byStatistics).toBeLessThan(twelve.byStatistics)
  })
})
