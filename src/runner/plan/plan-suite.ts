import type { CaseList, Suite } from '../../cases/suite.ts'
import { DEFAULT_TIMEOUT_MS } from './defaults.ts'

/** The run-wide settings that decide a suite's pairs; flags, where given, win over the case file. */
export interface PlanOptions {
  /** runs per case (`--trials`); overrides the files' `trials` */
  trials?: number
  /** per-case limit (`--timeout`); overrides the files' `timeout_ms` */
  timeoutMs?: number
}

/** One case of a suite as it will run: its trials and limit settled. */
export interface PlannedCase {
  /** the case's index in its suite's case list */
  at: number
  id: string
  /** why the case is skipped: it then has one pair, trial 0, that does not run */
  skip: string | undefined
  /** runs of the case; 1 for a skipped case */
  trials: number
  /** limit on target plus evaluators: flag, then case, then suite, then the default */
  timeoutMs: number
}

/**
 * The cases of a suite in file order, each with its trials and timeout resolved: the one plan that `evals run`
 * and `describeSuite` both walk. Cheap per case: no case definition is built here.
 */
export function* planSuite(suite: Suite, options: PlanOptions): Generator<PlannedCase> {
  const { cases } = suite
  for (let at = 0; at < cases.length; at++) {
    const skip = cases.skip(at)
    yield {
      at,
      id: cases.id(at),
      skip,
      trials: trialsOf(cases, at, options),
      timeoutMs: options.timeoutMs ?? cases.timeoutMs(at) ?? suite.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    }
  }
}

/** The pairs of case `at`: one per trial, or one for a skipped case. */
function trialsOf(cases: CaseList, at: number, options: PlanOptions): number {
  return cases.skip(at) === undefined ? (options.trials ?? cases.trials(at)) : 1
}

/** The pairs of a suite, skipped cases counted once. */
export function pairCount(cases: CaseList, options: PlanOptions): number {
  let pairs = 0
  for (let at = 0; at < cases.length; at++) pairs += trialsOf(cases, at, options)
  return pairs
}
