import { powerSentence } from '../baselines/format.ts'
import { writeFileAtomic } from '../util/atomic-file.ts'
import type { ReportSource } from '../report-file/read.ts'
import type { ReportCase, ReportHeader } from '../report-file/schema.ts'
import { formatCount } from '../util/format-count.ts'
import { formatMs, formatUsd } from './format.ts'
import { BoundedMarkdown, inlineMarkdown as md } from './markdown-text.ts'
import { MovedSnapshots } from './markdown-snapshots.ts'
import { markdownReasoning } from './markdown-reasoning.ts'
import { markdownTurns } from './markdown-turns.ts'
import type { ReportRenderer } from './renderer.ts'
import { problemReasons } from './text.ts'
import { pairSentence, VARIANT_COLUMNS, variantRows } from './variant-table.ts'

/** GitHub comments stop at 65,536 characters; stay well below whatever the suite size. */
export const MARKDOWN_MAX_BYTES = 60_000
const TOP_FAILURES = 10
const REASON_CHARS = 300
/** the summary, gate and baseline lines */
const HEAD_BYTES = 12_000
const TOP_BYTES = 14_000
/** kept free for the headings and lines that close the document */
const CLOSING_BYTES = 600

/**
 * A concise Markdown summary for PR comments and job summaries: counts, accuracy, the gate and baseline when
 * present, the top failures with reasons, and every failure in a collapsed `<details>` list, cut to stay under
 * MARKDOWN_MAX_BYTES.
 */
export const markdownRenderer: ReportRenderer = {
  name: 'markdown',
  fileName: 'report.md',
  async render(source, path) {
    await writeFileAtomic(path, await renderMarkdown(source))
  },
}

export async function renderMarkdown(source: ReportSource, maxBytes = MARKDOWN_MAX_BYTES): Promise<string> {
  const head = new BoundedMarkdown(HEAD_BYTES)
  for (const line of summaryLines(source.header)) head.add(line)
  const top = new BoundedMarkdown(TOP_BYTES)
  const all = new BoundedMarkdown(maxBytes - head.bytes - TOP_BYTES - CLOSING_BYTES)
  let problems = 0
  let listed = 0
  let topRows = 0
  const moved = new MovedSnapshots()
  const add = (result: ReportCase): void => {
    moved.add(result)
    const reasons = problemReasons(result)
    const [first] = reasons
    if (!first) return
    problems++
    const trial = result.trial > 0 ? ` (trial ${result.trial + 1})` : ''
    const variant = result.variant === undefined ? '' : ` [${md(result.variant, 60)}]`
    const name = `${md(result.suite, 80)} › ${md(result.caseId, 120)}${variant}${trial}`
    const known = result.expectFail === undefined ? '' : ' (known failure)'
    const mark = result.expectFail !== undefined ? '➖' : result.status === 'errored' ? '⚠️' : '❌'
    if (
      topRows < TOP_FAILURES &&
      top.add(`| ${mark} ${name}${known} | ${md(first.evaluator, 60)} | ${md(first.reason, REASON_CHARS)} |`)
    ) {
      topRows++
    }
    const why = reasons.map((r) => `**${md(r.evaluator, 60)}**: ${md(r.reason, REASON_CHARS)}`).join('; ')
    const item = [
      `- ${mark} ${name}${known} — ${why}`,
      ...markdownTurns(result),
      ...markdownReasoning(result),
    ].join('\n')
    if (listed === problems - 1 && all.add(item)) listed++
  }
  for await (const batch of source.batches()) for (const result of batch) add(result)
  const lines = [head.toString().trimEnd()]
  if (problems === 0) {
    const { total, counts } = source.header.summary
    const partial = counts.partial ?? 0
    const passed =
      partial > 0 ? `Every case passed; ${formatCount(partial)} only partly checked.` : 'Every case passed.'
    lines.push('', total === 0 ? 'No cases ran.' : passed)
  } else {
    lines.push(
      '',
      '### Top failures',
      '',
      '| Case | Evaluator | Reason |',
      '| --- | --- | --- |',
      top.toString().trimEnd(),
    )
    lines.push(
      '',
      `<details><summary>All ${formatCount(problems)} failing or errored case runs</summary>`,
      '',
    )
    lines.push(all.toString().trimEnd())
    if (problems > listed) lines.push(`- … and ${formatCount(problems - listed)} more in report.json`)
    lines.push('', '</details>')
  }
  lines.push(...moved.lines(maxBytes - head.bytes - top.bytes - all.bytes - CLOSING_BYTES))
  return `${lines.join('\n')}\n`
}

function summaryLines(header: ReportHeader): string[] {
  const { run, summary, gate, comparison } = header
  const { passed, failed, errored, skipped, partial = 0 } = summary.counts
  const suites = [...new Set(run.suites.map((suite) => md(suite.name, 60)))].join(', ') || 'no suites'
  const lines = [
    `## evals · ${suites}`,
    '',
    `✅ ${formatCount(passed - partial)} passed · ${partial > 0 ? `◐ ${formatCount(partial)} partial (checks skipped) · ` : ''}❌ ${formatCount(failed)} failed · ⚠️ ${formatCount(errored)} errored · ⏭️ ${formatCount(skipped)} skipped` +
      (summary.notRun > 0 ? ` · ${formatCount(summary.notRun)} not run (${run.stoppedBy ?? 'stopped'})` : ''),
    '',
  ]
  const facts = [
    `**Accuracy** ${summary.accuracy === null ? 'n/a' : `${(summary.accuracy * 100).toFixed(1)}%`}`,
    summary.latencyMs &&
      `**Latency** p50 ${formatMs(summary.latencyMs.p50)} · p95 ${formatMs(summary.latencyMs.p95)}`,
    `**Cost** ${summary.costUsd === null ? 'unknown' : formatUsd(summary.costUsd)}`,
    `**Duration** ${formatMs(run.durationMs)}`,
  ].filter(Boolean)
  lines.push(facts.join(' · '))
  const meta = [`run \`${md(run.id, 80)}\``]
  if (run.git) meta.push(`commit \`${run.git.commit.slice(0, 12)}\``)
  const models = [...new Set(run.suites.flatMap((suite) => (suite.model === undefined ? [] : [suite.model])))]
  if (models.length > 0) meta.push(`model ${models.map((model) => md(model, 60)).join(', ')}`)
  if (run.judges.length > 0) {
    const judges = [
      ...new Set(run.judges.flatMap((judge) => (judge.model === undefined ? [] : [judge.model]))),
    ]
    if (judges.length > 0) meta.push(`judge ${judges.map((judge) => md(judge, 60)).join(', ')}`)
  }
  lines.push('', meta.join(' · '))
  if (gate) {
    const icon = { pass: '✅', warn: '⚠️', fail: '❌' }[gate.decision]
    const sees =
      gate.minimumDetectableDrop === undefined
        ? ''
        : ` · sees drops of ≥ ${(gate.minimumDetectableDrop * 100).toFixed(1)} points`
    lines.push('', `**Gate: ${icon} ${gate.decision}**${sees}`)
    for (const reason of gate.reasons.slice(0, 10)) lines.push(`- ${md(reason, REASON_CHARS)}`)
    for (const warning of gate.warnings.slice(0, 5)) lines.push(`- ⚠️ ${md(warning, REASON_CHARS)}`)
  }
  if (header.variants) lines.push('', ...variantMarkdown(header.variants))
  for (const entry of comparison ?? []) {
    const { accuracy, counts } = entry
    const pct = (value: number | null): string => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`)
    const delta =
      accuracy.delta === null
        ? ''
        : ` (${accuracy.delta >= 0 ? '+' : ''}${(accuracy.delta * 100).toFixed(1)} pts)`
    lines.push(
      '',
      `**Baseline** ${md(entry.suite, 60)}: accuracy ${pct(accuracy.baseline)} → ${pct(accuracy.current)}${delta} · ` +
        `${counts.regressed} regressed · ${counts.improved} improved · ${counts.new} new · ${counts.removed} removed`,
    )
    const regressed = entry.cases.filter((c) => c.transition === 'regressed').slice(0, 20)
    if (regressed.length > 0) lines.push(`Regressed: ${regressed.map((c) => md(c.id, 80)).join(', ')}`)
    const power = entry.paired === null ? undefined : powerSentence(entry.paired)
    if (power !== undefined) lines.push('', `**Power** ${md(power, REASON_CHARS)}`)
  }
  return lines
}

/** The variant table and one line per pair of variants. */
function variantMarkdown(comparison: NonNullable<ReportHeader['variants']>): string[] {
  const row = (cells: readonly string[]): string => `| ${cells.map((cell) => md(cell, 120)).join(' | ')} |`
  return [
    '### Variants',
    '',
    row(VARIANT_COLUMNS),
    `|${' --- |'.repeat(VARIANT_COLUMNS.length)}`,
    ...variantRows(comparison).map(row),
    '',
    ...comparison.pairs.slice(0, 20).map((pair) => `- ${md(pairSentence(pair), REASON_CHARS)}`),
  ]
}
