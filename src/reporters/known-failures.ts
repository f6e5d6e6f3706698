import type { KnownFailureSource } from '../baselines/outcome.ts'
import type { CaseStats } from '../model/run-report.ts'
import type { Style } from './format.ts'

/**
 * The console's line on known failures (`expect_fail`): those that did not pass, which fail nothing, and those that
 * passed, whose mark can go. Empty when the run has none.
 */
export function knownFailureLines(cases: KnownFailureSource<CaseStats>, s: Style, limit = 5): string[] {
  const failing: string[] = []
  const passing: string[] = []
  for (const entry of cases.knownFailures?.() ?? cases) {
    if (entry.expectFail === undefined || entry.status === 'skipped') continue
    ;(entry.status === 'passed' ? passing : failing).push(entry.id)
  }
  const list = (ids: readonly string[]): string =>
    ids.slice(0, limit).join(', ') + (ids.length > limit ? `, … (${ids.length - limit} more)` : '')
  const lines: string[] = []
  if (failing.length > 0) {
    lines.push(
      `${'Known'.padEnd(10)}${failing.length} known failure${failing.length === 1 ? '' : 's'} ` +
        `(\`expect_fail\`) did not pass, as expected; ${s.dim('they fail nothing')}: ${list(failing)}`,
    )
  }
  if (passing.length > 0) {
    lines.push(
      `${'Known'.padEnd(10)}${s.green(`${passing.length} marked \`expect_fail\` passed`)}: ${list(passing)}; ` +
        'drop the mark so a later failure counts',
    )
  }
  return lines
}
