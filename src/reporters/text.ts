import { checkName } from '../report-file/check-name.ts'
import type { ReportCase } from '../report-file/schema.ts'
import { cutEnd } from '../util/cut-end.ts'
import { formatCount } from '../util/format-count.ts'

const CONTROL =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\0-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Control characters (ANSI escapes, NUL…) and lone surrogates as visible `\u001b` text; tabs and newlines stay. */
export function visibleControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** At most `max` characters, then a note with how many were left out; never splits a surrogate pair. */
export function truncate(text: string, max: number, where = 'report.json'): string {
  if (text.length <= max) return text
  const end = cutEnd(text, max)
  return `${text.slice(0, end)}… [${formatCount(text.length - end)} more characters in ${where}]`
}

/**
 * The trials of each case together, the groups complete in each batch at a time (report cases are sorted by suite,
 * case id and trial): a case whose trials a batch ends in the middle of comes whole with the next batch.
 */
export async function* groupTrials(
  batches: AsyncIterable<readonly ReportCase[]> | Iterable<readonly ReportCase[]>,
): AsyncGenerator<ReportCase[][]> {
  let group: ReportCase[] = []
  for await (const batch of batches) {
    const groups: ReportCase[][] = []
    for (const result of batch) {
      const first = group[0]
      if (
        first &&
        (first.suite !== result.suite || first.caseId !== result.caseId || first.variant !== result.variant)
      ) {
        groups.push(group)
        group = []
      }
      group.push(result)
    }
    if (groups.length > 0) yield groups
  }
  if (group.length > 0) yield [group]
}

/** The reasons a result did not pass: failing verdicts, or the error; empty for passed and skipped. */
export function problemReasons(result: ReportCase): { evaluator: string; reason: string }[] {
  if (result.status === 'errored')
    return [{ evaluator: 'error', reason: `${result.error.name}: ${result.error.message}` }]
  if (result.status !== 'failed') return []
  return result.verdicts
    .filter((verdict) => !verdict.pass && verdict.skipped !== true)
    .map((verdict) => ({ evaluator: checkName(verdict), reason: verdict.reason }))
}

/** A result as `partialNote` reads it: a runner CaseResult or a report case. */
interface MaybePartial {
  status: string
  partial?: true | undefined
  verdicts?: readonly { evaluator: string; skipped?: boolean | undefined }[]
}

/** `2 of 3 checks ran (skipped: rubric)` for a pass of which some checks were skipped; undefined otherwise. */
export function partialNote(result: MaybePartial): string | undefined {
  if (result.status !== 'passed' || result.partial !== true || !result.verdicts) return undefined
  const skipped = result.verdicts.filter((verdict) => verdict.skipped === true)
  const ran = result.verdicts.length - skipped.length
  const names = [...new Set(skipped.map((verdict) => verdict.evaluator))].join(', ')
  return `${ran} of ${result.verdicts.length} checks ran (skipped: ${names})`
}
