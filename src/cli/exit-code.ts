import { decideOutcome, knownFailuresOf, type FailOn, type RunOutcome } from '../baselines/outcome.ts'
import type { RunReport } from '../model/run-report.ts'

/** Exit codes of `evals`: CI can tell "the agent got worse" (1) from "the harness or target broke" (2). */
export const EXIT = { ok: 0, failed: 1, couldNotRun: 2, interrupted: 130 } as const

/** What the exit code reads of a finished run. */
export type ExitReport = Pick<RunReport, 'counts' | 'gate' | 'stoppedBy'> &
  Partial<Pick<RunReport, 'cases' | 'failOn'>>

/**
 * The exit code of a finished run under `--fail-on` (default: the run's own, else `failure`): 130 interrupted; 1 when the gate failed,
 * or (`failure`) a case failed, known failures (`expect_fail`) aside; 2 when what fails the run is errored cases
 * only (infrastructure: the target threw or timed out, or an evaluator crashed) or no case ran; 0 otherwise, a
 * gate warning included. `never` gives 0 unless no case ran.
 */
export function exitCodeOf(report: ExitReport, failOn: FailOn = report.failOn ?? 'failure'): number {
  return verdictOf(report, failOn).code
}

/**
 * The run's outcome line, in the Action's words: which happened and the exit code it gives, e.g.
 * "Outcome   failed: 2 case runs failed → exit 0 (`--fail-on regression` fails only on a failed gate or errored cases)".
 */
export function outcomeLine(report: ExitReport, failOn: FailOn = report.failOn ?? 'failure'): string {
  const { code, outcome } = verdictOf(report, failOn)
  const why = code === 0 && outcome.status !== 'passed' ? `: ${IGNORED[failOn]}` : ''
  return `${'Outcome'.padEnd(10)}${outcome.status}: ${brief(report, outcome)} → exit ${code} (\`--fail-on ${failOn}\`${why})`
}

const IGNORED: Record<FailOn, string> = {
  failure: '',
  regression: 'fails only on a failed gate or errored cases',
  never: 'fails only when no case ran',
}

function verdictOf(report: ExitReport, failOn: FailOn): { code: number; outcome: RunOutcome } {
  const knownFailures = report.cases === undefined ? undefined : knownFailuresOf(report.cases)
  const outcome = decideOutcome({ ...report, ...(knownFailures && { knownFailures }) }, failOn)
  if (report.stoppedBy === 'interrupt') return { code: EXIT.interrupted, outcome }
  if (!outcome.fail) return { code: EXIT.ok, outcome }
  const failedCases = report.counts.failed - (knownFailures?.failed ?? 0) > 0
  const quality = outcome.status === 'regressed' || (failOn === 'failure' && failedCases)
  return { code: quality ? EXIT.failed : EXIT.couldNotRun, outcome }
}

/** The outcome in a few words; the gate's reasons are printed above it. */
function brief(report: ExitReport, outcome: RunOutcome): string {
  if (outcome.status !== 'regressed') return outcome.summary
  const reasons = report.gate?.reasons.length ?? 0
  return `the gate failed (${reasons} reason${reasons === 1 ? '' : 's'})`
}
