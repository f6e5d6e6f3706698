import type { ReportCase } from '../report-file/schema.ts'
import { turnViews } from './conversation-text.ts'
import { inlineMarkdown as md } from './markdown-text.ts'

const TEXT_CHARS = 200

/** A conversation case turn by turn, as nested list items under the case's item; empty for a one-reply case. */
export function markdownTurns(result: ReportCase): string[] {
  return (turnViews(result) ?? []).map((turn) => {
    const failing = turn.verdicts.filter((verdict) => !verdict.pass && verdict.skipped !== true)
    const mark = failing.length > 0 ? '❌' : '✅'
    const why = failing.map((verdict) => ` — **${md(verdict.evaluator, 60)}**: ${md(verdict.reason, 300)}`)
    const tools =
      turn.tools === null
        ? ' (tools: unknown)'
        : turn.tools.length > 0
          ? ` (tools: ${md(turn.tools.join(', '), 120)})`
          : ''
    return `  - ${mark} turn ${String(turn.index)}: ${md(turn.user, TEXT_CHARS)} → ${md(turn.output, TEXT_CHARS)}${tools}${why.join('')}`
  })
}
