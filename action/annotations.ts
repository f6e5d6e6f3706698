import { relative } from 'node:path'
import * as core from '@actions/core'
import type { Suite } from '../src/cases/suite.ts'
import { CaseFileError } from '../src/errors.ts'
import type { CaseStats, RunReport } from '../src/model/run-report.ts'

/** GitHub shows at most 50 annotations of a kind per job; past that they only clutter the log. */
const MAX_ANNOTATIONS = 50
const MAX_MESSAGE_CHARS = 1000

/**
 * One error annotation per failed or errored case, at the case's line in its case file. Errored cases are titled
 * as infrastructure failures and regressed ones as regressions, so the three read apart in the PR's diff view.
 */
export function annotateCases(
  report: Pick<RunReport, 'cases' | 'problems' | 'comparison' | 'comparisons'>,
  suites: readonly Suite[],
  workspace: string,
): void {
  const regressed = new Set(
    (report.comparisons ?? (report.comparison ? [report.comparison] : [])).flatMap((comparison) =>
      comparison.cases
        .filter((entry) => entry.transition === 'regressed')
        .map((entry) => `${comparison.suite}\0${entry.id}`),
    ),
  )
  const reasons = new Map<string, string[]>()
  for (const problem of report.problems) {
    const key = `${problem.suite}\0${problem.caseId}`
    const list = reasons.get(key) ?? []
    if (list.length === 0) reasons.set(key, list)
    for (const reason of problem.reasons) list.push(`${reason.evaluator}: ${reason.reason}`)
  }
  const problems: CaseStats[] = []
  for (const entry of report.cases)
    if (entry.status === 'failed' || entry.status === 'errored') problems.push(entry)
  for (const entry of problems.slice(0, MAX_ANNOTATIONS)) {
    const key = `${entry.suite}\0${entry.id}`
    const suite = suites.find((candidate) => candidate.name === entry.suite)
    const line = suite && lineOf(suite, entry.id)
    const what =
      entry.status === 'errored'
        ? 'errored (infrastructure, not a quality result)'
        : regressed.has(key)
          ? 'regressed against the baseline'
          : 'failed'
    const trials = entry.trials + entry.errored > 1 ? ` (${entry.passes}/${entry.trials} trials passed)` : ''
    const why = [...new Set(reasons.get(key) ?? [])].join('\n') || 'see the job summary'
    core.error(truncate(`${why}${trials}`), {
      title: `evals: ${entry.suite} › ${entry.id} ${what}`,
      ...(suite && { file: relative(workspace, suite.file) }),
      ...(line !== undefined && { startLine: line }),
    })
  }
  if (problems.length > MAX_ANNOTATIONS) {
    core.info(`evals: ${problems.length - MAX_ANNOTATIONS} more failed or errored cases are not annotated.`)
  }
}

/** A case-file error annotated at every problem it lists; any other error as one annotation. */
export function annotateError(error: unknown, workspace: string): void {
  if (error instanceof CaseFileError) {
    for (const issue of error.issues.slice(0, MAX_ANNOTATIONS)) {
      core.error(truncate(`${issue.path}: ${issue.message}`), {
        title: 'evals: invalid case file',
        file: relative(workspace, issue.file),
        ...(issue.line !== undefined && { startLine: issue.line }),
        ...(issue.column !== undefined && { startColumn: issue.column }),
      })
    }
    return
  }
  core.error(truncate(error instanceof Error ? error.message : String(error)), {
    title: 'evals: could not run',
  })
}

function truncate(text: string): string {
  return text.length <= MAX_MESSAGE_CHARS ? text : `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…`
}

function lineOf({ cases }: Suite, id: string): number | undefined {
  for (let index = 0; index < cases.length; index++) if (cases.id(index) === id) return cases.line(index)
  return undefined
}
