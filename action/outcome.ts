import type { RunReport } from '../src/model/run-report.ts'
import type { FailOn } from './inputs.ts'

/**
 * How the run went, worst first: the gate failed (`regressed`), a case failed its checks (`failed`), cases only
 * errored (`errored`: infrastructure, the target threw or timed out, or a check crashed), or nothing could be
 * judged (`could-not-run`: a config or case-file error, or no case ran).
 */
export type RunStatus = 'passed' | 'regressed' | 'failed' | 'errored' | 'could-not-run'

export interface Outcome {
  status: RunStatus
  /** whether `fail-on` fails the job */
  fail: boolean
  /** one line for the log, and for the job's failure when `fail` */
  message: string
}

type Judged = Pick<RunReport, 'counts' | 'gate'>

/**
 * Maps a finished run to the job's result. `never` fails only when nothing could be judged; `regression` also
 * fails on a failed gate and on errored cases (they hide whether a case regressed, so the check fails closed);
 * `failure` also fails on any failed case.
 */
export function decideOutcome(report: Judged, failOn: FailOn): Outcome {
  const { passed, failed, errored } = report.counts
  const parts: string[] = []
  if (report.gate?.decision === 'fail') {
    parts.push(`the gate failed: ${report.gate.reasons.join(' ').replace(/\.$/, '')}`)
  }
  if (failed > 0) parts.push(`${plural(failed, 'case run')} failed`)
  if (errored > 0) {
    parts.push(
      `${plural(errored, 'case run')} errored (infrastructure: the target threw or timed out, or a check crashed; not a quality result)`,
    )
  }
  const ran = passed + failed + errored
  const status: RunStatus =
    ran === 0
      ? 'could-not-run'
      : report.gate?.decision === 'fail'
        ? 'regressed'
        : failed > 0
          ? 'failed'
          : errored > 0
            ? 'errored'
            : 'passed'
  if (status === 'could-not-run') {
    return { status, fail: true, message: 'evals: no case ran (every case was skipped or filtered out).' }
  }
  const fail =
    failOn === 'never'
      ? false
      : failOn === 'regression'
        ? status === 'regressed' || errored > 0
        : status !== 'passed'
  const partial = report.counts.partial ?? 0
  const partly = partial > 0 ? ` (${partial} only partly checked: some checks were skipped)` : ''
  const summary = parts.length === 0 ? `all ${plural(passed, 'case run')} passed${partly}` : parts.join('; ')
  return { status, fail, message: `evals: ${summary}.` }
}

/** The cases that regressed against their baselines, over every compared suite. */
export function regressionCount(report: Pick<RunReport, 'comparison' | 'comparisons'>): number {
  const comparisons = report.comparisons ?? (report.comparison ? [report.comparison] : [])
  return comparisons.reduce((sum, comparison) => sum + comparison.counts.regressed, 0)
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
