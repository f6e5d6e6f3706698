import type { CaseStats, RunReport } from '../model/run-report.ts'
import { formatCount } from '../util/format-count.ts'
import type { Style } from './format.ts'
import { inert } from './inert.ts'

/** the per-case trials table lists every case up to this many, else only the cases that did not always pass */
const TRIAL_ROWS = 20

/** Score bootstrap, flaky cases and, with several trials, each case's pass rate. */
export function statsLines(report: RunReport, s: Style): string[] {
  const lines: string[] = []
  const several = report.suiteStats.length > 1
  for (const suite of report.suiteStats) {
    if (!suite.graded || suite.score === null) continue
    const { mean, interval } = suite.score
    lines.push(
      `${label('Score')}${several ? `${suite.suite}: ` : ''}${mean.toFixed(2)} mean ${s.dim(
        `· 95% bootstrap CI ${interval.low.toFixed(2)}–${interval.high.toFixed(2)}`,
      )}`,
    )
  }
  const name = (entry: CaseStats): string => inert(several ? `${entry.suite} › ${entry.id}` : entry.id)
  const flaky: CaseStats[] = []
  // the suites count their flaky cases: the cases are read only to name them
  if (report.suiteStats.some((suite) => suite.flaky > 0))
    for (const entry of report.cases) if (entry.flaky) flaky.push(entry)
  if (flaky.length > 0) {
    const listed = flaky.slice(0, 10).map((entry) => `${name(entry)} ${entry.passes}/${entry.trials}`)
    const more = flaky.length > 10 ? ` and ${flaky.length - 10} more` : ''
    lines.push(
      `${label('Flaky')}${s.yellow(`${formatCount(flaky.length)} case${flaky.length === 1 ? '' : 's'}`)}: ${listed.join(', ')}${more}`,
    )
  }
  const trials = report.suiteStats.reduce((most, suite) => Math.max(most, suite.trials), 0)
  if (trials > 1) lines.push(...trialRows(report.cases, name, s))
  return lines
}

function trialRows(cases: Iterable<CaseStats>, name: (entry: CaseStats) => string, s: Style): string[] {
  // every case that ran when they are few, else the lowest pass rates, in run order among equals
  let ran = 0
  const first: CaseStats[] = []
  const lowest: CaseStats[] = []
  const rate = (entry: CaseStats): number => entry.passRate ?? -1
  for (const entry of cases) {
    if (entry.status === 'skipped') continue
    ran++
    if (first.length <= TRIAL_ROWS) first.push(entry)
    if (entry.passRate === 1) continue
    let at = lowest.length
    while (at > 0 && rate(lowest[at - 1] as CaseStats) > rate(entry)) at--
    if (at < TRIAL_ROWS) lowest.splice(at, 0, entry)
    if (lowest.length > TRIAL_ROWS) lowest.pop()
  }
  const shown = ran <= TRIAL_ROWS ? first : lowest
  const width = Math.min(40, Math.max(...shown.map((entry) => name(entry).length), 0))
  const lines = [
    `${label('Per case')}${s.dim('passes/trials · pass rate · pass@k and pass^k with k = trials')}`,
  ]
  for (const entry of shown) {
    const mark =
      entry.passRate === null
        ? s.yellow('!')
        : entry.flaky
          ? s.yellow('~')
          : entry.passRate === 1
            ? s.green('✓')
            : s.red('✗')
    const rate = entry.passRate === null ? '   —' : `${Math.round(entry.passRate * 100)}%`.padStart(4)
    const k = entry.trials
    const estimates =
      entry.passAtK === null || entry.passHatK === null
        ? s.dim(`${entry.errored} errored`)
        : `pass@${k} ${entry.passAtK.toFixed(2)} · pass^${k} ${entry.passHatK.toFixed(2)}`
    lines.push(
      `  ${mark} ${name(entry).padEnd(width)}  ${`${entry.passes}/${entry.trials}`.padStart(5)} ${rate}  ${estimates}${entry.flaky ? s.yellow(' flaky') : ''}`,
    )
  }
  const hidden = ran - shown.length
  if (hidden > 0)
    lines.push(
      s.dim(
        `  … and ${formatCount(hidden)} more cases${ran > TRIAL_ROWS ? ' (those that always passed are not listed)' : ''}`,
      ),
    )
  return lines
}

function label(text: string): string {
  return text.padEnd(10)
}
