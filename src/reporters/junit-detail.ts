import type { ReportCase } from '../report-file/schema.ts'
import { conversationText, turnViews } from './conversation-text.ts'
import { partialNote, problemReasons, truncate } from './text.ts'

const BODY_CHARS = 4000

/**
 * What the JUnit schemas have no place for, as a plain-text block of a suite's `<system-out>`: a case run that did
 * not pass, or passed only partly, with its tags, score, cost, checks and its input and output (or conversation).
 * Undefined for a plain pass, whose detail is in report.json.
 */
export function caseDetail(result: ReportCase, name: string): string | undefined {
  const partial = partialNote(result)
  if (result.status === 'passed' && partial === undefined) return undefined
  const known = knownFailure(result)
  const facts = [
    result.status === 'skipped' ? `skipped: ${result.reason}` : result.status,
    ...(known === undefined ? [] : [known]),
    ...(result.tags.length > 0 ? [`tags ${result.tags.join(', ')}`] : []),
    ...(result.status === 'passed' || result.status === 'failed' ? [`score ${String(result.score)}`] : []),
    ...(partial === undefined ? [] : [partial]),
    ...(result.status !== 'skipped' && result.transcript && result.transcript.costUsd !== null
      ? [`cost $${String(result.transcript.costUsd)}`]
      : []),
  ]
  const lines = [`── ${name} · ${facts.join(' · ')}`]
  for (const { evaluator, reason } of problemReasons(result))
    lines.push(`${evaluator}: ${truncate(reason, BODY_CHARS)}`)
  if (result.status === 'skipped') return `${lines.join('\n')}\n`
  const turns = turnViews(result)
  if (turns) lines.push(conversationText(turns, BODY_CHARS))
  else if (result.transcript) {
    const { input, output } = result.transcript
    lines.push(`input: ${truncate(typeof input === 'string' ? input : JSON.stringify(input), BODY_CHARS)}`)
    lines.push(`output: ${truncate(output, BODY_CHARS)}`)
  }
  return `${lines.join('\n')}\n`
}

/** "known failure (expect_fail: reason)" for a run of a known-failure case that did not pass; else undefined. */
export function knownFailure(result: ReportCase): string | undefined {
  if (result.expectFail === undefined || result.status === 'passed' || result.status === 'skipped')
    return undefined
  return `known failure (expect_fail${result.expectFail === true ? '' : `: ${result.expectFail}`})`
}
