import type { RunReport } from '../model/run-report.ts'
import type { Style } from './format.ts'
import { inert } from './inert.ts'

/** The snapshot lines of the console summary: the counts, then each moved output with its diff. */
export function formatSnapshots(report: RunReport, s: Style): string[] {
  const summary = report.snapshots
  if (!summary) return []
  const counts = [
    `${String(summary.unchanged)} unchanged`,
    `${String(summary.new)} new`,
    (summary.changed > 0 ? s.yellow : s.dim)(`${String(summary.changed)} changed`),
    ...(summary.updated > 0 ? [`${String(summary.updated)} updated`] : []),
  ]
  const lines = [`${'Snapshots'.padEnd(10)}${counts.join(' · ')}`]
  for (const file of summary.written) lines.push(`${' '.repeat(10)}${s.dim(`wrote ${file}`)}`)
  for (const moved of summary.moved) {
    const trial = moved.trial > 0 ? ` (trial ${String(moved.trial + 1)})` : ''
    lines.push(
      `  ${s.yellow('~')} ${inert(moved.suite)} › ${inert(moved.caseId)}${trial} ${s.dim(moved.status)}`,
    )
    for (const line of moved.diff.split('\n')) {
      const color = line.startsWith('+') ? s.green : line.startsWith('-') ? s.red : s.dim
      // the diff's lines are the model's output: each one shown inert, the lines themselves kept
      lines.push(`      ${color(inert(line))}`)
    }
  }
  return lines
}
