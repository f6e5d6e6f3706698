import { passFailVariance, minimumDetectableDrop, trialsToDetect, type PowerCase } from '../stats/power.ts'
import { percentile } from '../stats/percentile.ts'
import type { Baseline } from './schema.ts'

/** A case of the suite being planned: its id and weight. */
export interface PlannedCase {
  id: string
  weight: number
}

/** Options of `planTrials`. */
export interface PlanOptions {
  /** one-sided significance level of the gate @default 0.05 */
  alpha?: number
  /** the pass rate assumed for every case when no baseline tells @default 0.9 */
  assumedPassRate?: number
  /** the trials per run to show @default [1, 2, 3, 5, 10, 20] */
  trials?: readonly number[]
  /** the drop to find the trials for, 0..1 (e.g. 0.05 for 5 points) */
  drop?: number
}

/** Where a plan's pass/fail variance came from. */
export type VarianceSource =
  | { kind: 'baseline'; trials: number }
  | { kind: 'baseline-rate'; passRate: number }
  | { kind: 'assumed'; passRate: number }

/** What a suite can detect at each number of trials, and what a given drop needs. */
export interface TrialPlan {
  cases: number
  variance: VarianceSource
  /** the baseline's median trials per case; null without a baseline */
  baselineTrials: number | null
  /** per trials per run: the MDE against the baseline as it is, and with the baseline at as many trials */
  rows: { trials: number; againstBaseline: number | null; sameTrials: number | null }[]
  /** the fewest trials per run that see `drop`; null where no number up to 1000 does */
  forDrop?: { drop: number; againstBaseline: number | null; sameTrials: number | null }
}

/**
 * Answers "how many trials do I need to detect a d-point drop?" before any money is spent: the minimum detectable
 * drop at 80% power (`minimumDetectableDrop`, Miller 2024 §5) for a range of trials per run, from each case's
 * pass/fail variance in the baseline (or, without one, an assumed pass rate).
 */
export function planTrials(
  cases: readonly PlannedCase[],
  baseline: Baseline | null,
  options: PlanOptions = {},
): TrialPlan {
  const { alpha = 0.05, assumedPassRate = 0.9, trials = [1, 2, 3, 5, 10, 20], drop } = options
  const { variances, source } = variancesOf(cases, baseline, assumedPassRate)
  const weighted = cases.filter((entry) => entry.weight > 0)
  const baselineTrials =
    baseline === null || baseline.cases.length === 0
      ? null
      : Math.max(
          1,
          Math.round(
            percentile(
              baseline.cases.map((entry) => entry.trials),
              0.5,
            ),
          ),
        )
  const powerCases = (run: number, base: number): PowerCase[] =>
    weighted.map((entry) => ({
      weight: entry.weight,
      variance: variances.get(entry.id) ?? 0,
      baselineTrials: base,
      currentTrials: run,
    }))
  const mde = (run: number, base: number): number | null =>
    minimumDetectableDrop(powerCases(run, base), { alpha })
  const rows = trials.map((run) => ({
    trials: run,
    againstBaseline: baselineTrials === null ? null : mde(run, baselineTrials),
    sameTrials: mde(run, run),
  }))
  const needed = (sameTrials: boolean): number | null =>
    drop === undefined
      ? null
      : trialsToDetect(
          powerCases(1, baselineTrials ?? 1).map(({ currentTrials: _, ...entry }) => entry),
          drop,
          { alpha, sameTrials },
        )
  return {
    cases: weighted.length,
    variance: source,
    baselineTrials,
    rows,
    ...(drop !== undefined && {
      forDrop: {
        drop,
        againstBaseline: baselineTrials === null ? null : needed(false),
        sameTrials: needed(true),
      },
    }),
  }
}

function variancesOf(
  cases: readonly PlannedCase[],
  baseline: Baseline | null,
  assumedPassRate: number,
): { variances: Map<string, number>; source: VarianceSource } {
  const scored = baseline?.cases.filter((entry) => entry.trials > 0) ?? []
  const trials =
    scored.length === 0
      ? 0
      : Math.round(
          percentile(
            scored.map((entry) => entry.trials),
            0.5,
          ),
        )
  if (trials >= 2) {
    const entries = new Map(scored.map((entry) => [entry.id, entry]))
    const known = new Map<string, number>()
    for (const { id } of cases) {
      const entry = entries.get(id)
      if (entry !== undefined) known.set(id, passFailVariance(entry.passes, entry.trials) ?? 0)
    }
    // cases the baseline does not hold take the mean of those it does
    const mean =
      known.size === 0 ? 0 : [...known.values()].reduce((sum, value) => sum + value, 0) / known.size
    return {
      variances: new Map(cases.map(({ id }) => [id, known.get(id) ?? mean])),
      source: { kind: 'baseline', trials },
    }
  }
  // one trial a case tells nothing of a case's own variance; the suite's pass rate p̄ gives p̄(1 − p̄), which bounds
  // the mean of the cases' pᵢ(1 − pᵢ) from above (Jensen), taken half a trial from the edge as `passFailVariance`
  const passes = scored.reduce((sum, entry) => sum + entry.passes, 0)
  const total = scored.reduce((sum, entry) => sum + entry.trials, 0)
  const passRate = total === 0 ? assumedPassRate : (passes + 0.5) / (total + 1)
  const variance = passRate * (1 - passRate)
  return {
    variances: new Map(cases.map(({ id }) => [id, variance])),
    source: total === 0 ? { kind: 'assumed', passRate } : { kind: 'baseline-rate', passRate },
  }
}
