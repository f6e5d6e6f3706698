import { compareToBaseline } from './compare.ts'
import type { Comparison } from './comparison.ts'
import type { GateOptions } from './gate-options.ts'
import { evaluateGate, resolveGateOptions, type GateResult } from './gate.ts'
import { baselineOfRun, suiteRunOf, type RunSummaryFile, type SuiteRun } from './run-summary-file.ts'
import type { Baseline } from './schema.ts'

/** A run's suite compared with a reference (a baseline or an earlier run), and the gate applied to it. */
export interface RunComparison {
  comparison: Comparison
  gate: GateResult
}

/**
 * Compares one suite of a run with a reference case by case, with the paired statistics of the gate, and applies
 * the gate: the case file's `gate:` block under `flags`. `evals compare` and `evals view` both come here.
 */
export function compareRun(current: SuiteRun, reference: Baseline, flags: GateOptions = {}): RunComparison {
  const gateOptions = resolveGateOptions({ ...current.gateOptions, ...flags })
  const comparison = compareToBaseline(current.run, reference, {
    maxBaselineAgeDays: gateOptions.max_baseline_age_days,
    alpha: gateOptions.alpha,
  })
  return { comparison, gate: evaluateGate(comparison, current.run, gateOptions) }
}

/** The suites two runs share, each with the reference run's side in the shape of a baseline, in the current run's order. */
export function sharedSuites(
  current: RunSummaryFile,
  reference: RunSummaryFile,
): { current: SuiteRun; reference: Baseline }[] {
  const pairs = []
  for (const { suite } of current.suiteStats) {
    if (!reference.suiteStats.some((entry) => entry.suite === suite)) continue
    const currentRun = suiteRunOf(current, suite)
    const referenceRun = suiteRunOf(reference, suite)
    if (currentRun && referenceRun)
      pairs.push({ current: currentRun, reference: baselineOfRun(referenceRun) })
  }
  return pairs
}
