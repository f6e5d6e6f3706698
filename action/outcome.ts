import { decideOutcome as decideRun, knownFailuresOf, type RunStatus } from '../src/baselines/outcome.ts'
import type { RunReport } from '../src/model/run-report.ts'
import type { FailOn } from './inputs.ts'

export type { RunStatus }

export interface Outcome {
  status: RunStatus
  /** whether `fail-on` fails the job */
  fail: boolean
  /** one line for the log, and for the job's failure when `fail` */
  message: string
}

type Judged = Pick<RunReport, 'counts' | 'gate'> & Partial<Pick<RunReport, 'cases'>>

/**
 * Maps a finished run to the job's result, as `evals run --fail-on` does: `never` fails only when nothing could be
 * judged; `regression` also fails on a failed gate and on errored cases (they hide whether a case regressed, so the
 * check fails closed); `failure` also fails on any failed case. Known failures (`expect_fail`) fail nothing.
 */
export function decideOutcome(report: Judged, failOn: FailOn): Outcome {
  const { status, fail, summary } = decideRun(
    { ...report, ...(report.cases && { knownFailures: knownFailuresOf(report.cases) }) },
    failOn,
  )
  return { status, fail, message: `evals: ${summary}.` }
}

/** The cases that regressed against their baselines, over every compared suite. */
export function regressionCount(report: Pick<RunReport, 'comparison' | 'comparisons'>): number {
  const comparisons = report.comparisons ?? (report.comparison ? [report.comparison] : [])
  return comparisons.reduce((sum, comparison) => sum + comparison.counts.regressed, 0)
}
