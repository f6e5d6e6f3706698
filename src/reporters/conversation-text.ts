import type { ReportCase } from '../report-file/schema.ts'
import { truncate } from './text.ts'

type Verdict = Extract<ReportCase, { verdicts: unknown }>['verdicts'][number]
type Turn = NonNullable<Extract<ReportCase, { verdicts: unknown }>['turns']>[number]

/** One turn of a conversation with the checks of its reply, as the text reporters show it. */
export interface TurnView extends Turn {
  /** 1-based */
  index: number
  verdicts: Verdict[]
}

/** The turns of a conversation case, each with its checks; undefined for a one-reply case. */
export function turnViews(result: ReportCase): TurnView[] | undefined {
  if (result.status === 'skipped' || result.turns === undefined) return undefined
  const { verdicts } = result
  return result.turns.map((turn, at) => ({
    ...turn,
    index: at + 1,
    verdicts: verdicts.filter((verdict) => verdict.turn === at + 1),
  }))
}

/** A verdict as one plain line: `✓ contains: reason`. */
export function verdictLine(verdict: Verdict): string {
  const mark = verdict.skipped === true ? '-' : verdict.pass ? '✓' : '✗'
  return `${mark} ${verdict.evaluator}: ${verdict.reason}`
}

/** The conversation turn by turn as plain text (JUnit's system-out), each string cut at `max` characters. */
export function conversationText(turns: readonly TurnView[], max: number): string {
  const lines: string[] = []
  for (const turn of turns) {
    lines.push(`turn ${String(turn.index)}`)
    lines.push(`  user: ${truncate(turn.user, max)}`)
    lines.push(`  reply: ${truncate(turn.output, max)}`)
    if (turn.tools === null) lines.push('  tools: unknown (not reported)')
    else if (turn.tools.length > 0) lines.push(`  tools: ${turn.tools.join(', ')}`)
    for (const verdict of turn.verdicts) lines.push(`  ${truncate(verdictLine(verdict), max)}`)
  }
  return lines.join('\n')
}
