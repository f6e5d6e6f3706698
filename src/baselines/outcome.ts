import type { GateResult } from './gate.ts'
import type { CaseSummary } from './summary.ts'

/** What fails a run, in the words of `evals run --fail-on` and the Action's `fail-on` input. */
export type FailOn = 'regression' | 'failure' | 'never'

/** The `--fail-on` words, the default first. */
export const FAIL_ON = ['failure', 'regression', 'never'] as const satisfies readonly FailOn[]

/**
 * How a run went, worst first: the gate failed (`regressed`), a case failed its checks (`failed`), cases only
 * errored (`errored`: infrastructure, the target threw or timed out, or a check crashed), or nothing could be
 * judged (`could-not-run`: no case ran).
 */
export type RunStatus = 'passed' | 'regressed' | 'failed' | 'errored' | 'could-not-run'

/** The verdict on a finished run under a `fail-on` setting. */
export interface RunOutcome {
  status: RunStatus
  /** whether `fail-on` fails the run (the CLI's exit code, the Action's job) */
  fail: boolean
  /** one sentence saying what happened, e.g. "the gate failed: …; 2 case runs failed" */
  summary: string
}

/** What the verdict reads of a run: its pair counts, its gate, and the pairs of its known failures. */
export interface JudgedRun {
  counts: { passed: number; failed: number; errored: number; partial?: number }
  gate?: Pick<GateResult, 'decision' | 'reasons'> | undefined
  /** failed and errored pairs of `expect_fail` cases (already in `counts`); see `knownFailuresOf` */
  knownFailures?: { failed: number; errored: number }
}

/**
 * Decides a run's status and whether `failOn` fails it. `never` fails only when nothing ran; `regression` fails on
 * a failed gate and on errored cases (they hide whether a case regressed, so it fails closed); `failure` also fails
 * on any failed case. Failures of known-failure cases (`expect_fail`) are reported but fail nothing.
 */
export function decideOutcome(run: JudgedRun, failOn: FailOn): RunOutcome {
  const known = run.knownFailures ?? { failed: 0, errored: 0 }
  const { passed } = run.counts
  const failed = run.counts.failed - known.failed
  const errored = run.counts.errored - known.errored
  const regressed = run.gate?.decision === 'fail'
  const parts: string[] = []
  if (regressed) parts.push(`the gate failed: ${run.gate?.reasons.join(' ').replace(/\.$/, '') ?? ''}`)
  if (failed > 0) parts.push(`${plural(failed, 'case run')} failed`)
  if (errored > 0) {
    parts.push(
      `${plural(errored, 'case run')} errored (infrastructure: the target threw or timed out, or a check crashed; not a quality result)`,
    )
  }
  const knownCount = known.failed + known.errored
  if (knownCount > 0)
    parts.push(`${plural(knownCount, 'known failure')} (\`expect_fail\`) did not pass, as expected`)
  const ran = passed + run.counts.failed + run.counts.errored
  if (ran === 0) {
    return {
      status: 'could-not-run',
      fail: true,
      summary: 'no case ran (every case was skipped or filtered out)',
    }
  }
  const status: RunStatus = regressed
    ? 'regressed'
    : failed > 0
      ? 'failed'
      : errored > 0
        ? 'errored'
        : 'passed'
  const fail =
    failOn === 'never' ? false : failOn === 'regression' ? regressed || errored > 0 : status !== 'passed'
  const partial = run.counts.partial ?? 0
  const partly = partial > 0 ? ` (${partial} only partly checked: some checks were skipped)` : ''
  const summary =
    parts.length === 0
      ? `all ${plural(passed, 'case run')} passed${partly}`
      : status === 'passed'
        ? `${plural(passed, 'case run')} passed${partly}; ${parts.join('; ')}`
        : parts.join('; ')
  return { status, fail, summary }
}

/** The failed and errored pairs of the known-failure (`expect_fail`) cases of a run. */
export function knownFailuresOf(
  cases: KnownFailureSource<Pick<CaseSummary, 'passes' | 'trials' | 'expectFail'> & { errored?: number }>,
): { failed: number; errored: number } {
  let failed = 0
  let errored = 0
  for (const entry of cases.knownFailures?.() ?? cases) {
    if (entry.expectFail === undefined) continue
    failed += entry.trials - entry.passes
    errored += entry.errored ?? 0
  }
  return { failed, errored }
}

/** Cases, with a way to list only the known failures when the list has one (a run's `CaseStatsList`). */
export type KnownFailureSource<T> = Iterable<T> & { knownFailures?(): Iterable<T> }

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
