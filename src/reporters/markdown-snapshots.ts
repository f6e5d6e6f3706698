import type { ReportCase } from '../report-file/schema.ts'
import { BoundedMarkdown, inlineMarkdown as md } from './markdown-text.ts'
import { truncate, visibleControls } from './text.ts'

const LISTED = 20
const DIFF_CHARS = 1500

/** The cases whose output moved from its snapshot, gathered as the report's cases stream by. */
export class MovedSnapshots {
  readonly #moved: { name: string; status: string; diff: string }[] = []
  #count = 0

  add(result: ReportCase): void {
    if (result.status !== 'passed' && result.status !== 'failed') return
    const { snapshot } = result
    if (snapshot?.diff === undefined) return
    this.#count++
    if (this.#moved.length >= LISTED) return
    const trial = result.trial > 0 ? ` (trial ${String(result.trial + 1)})` : ''
    const name = `${md(result.suite, 80)} › ${md(result.caseId, 120)}${trial}`
    this.#moved.push({ name, status: snapshot.status, diff: snapshot.diff })
  }

  /** A `### Moved snapshots` section of at most `maxBytes`, each diff in a fence; empty when nothing moved. */
  lines(maxBytes: number): string[] {
    if (this.#count === 0) return []
    const section = new BoundedMarkdown(maxBytes)
    let listed = 0
    for (const { name, status, diff } of this.#moved) {
      const text = truncate(visibleControls(diff), DIFF_CHARS)
      const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((run) => run[0].length + 1)))
      if (!section.add(`- ${name} (${status})\n\n${fence}diff\n${text}\n${fence}\n`)) break
      listed++
    }
    const more = this.#count - listed
    const title = `### Moved snapshots (${String(this.#count)}, not failures unless \`snapshot: strict\`)`
    return [
      '',
      title,
      '',
      section.toString().trimEnd(),
      ...(more > 0 ? [`- … and ${String(more)} more in report.json`] : []),
    ]
  }
}
