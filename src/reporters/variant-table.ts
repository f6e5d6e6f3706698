import type { ReportHeader } from '../report-file/schema.ts'
import { testName } from '../baselines/format.ts'
import { formatCount } from '../util/format-count.ts'
import { formatMs, formatUsd } from './format.ts'

/** The variant comparison as report.json holds it (a run's `VariantComparison` is one). */
type VariantComparison = NonNullable<ReportHeader['variants']>
type VariantSummary = VariantComparison['variants'][number]
type VariantPair = VariantComparison['pairs'][number]

/** The columns of the variant table, console and Markdown alike. */
export const VARIANT_COLUMNS = [
  'Variant',
  'Accuracy (95% CI)',
  'pass^k',
  'p50',
  'p95',
  'Tokens/case',
  'Cost/case',
  'Cost/pass',
] as const

/** One row of cells per variant, in run order; the baseline variant is marked. */
export function variantRows(comparison: VariantComparison): string[][] {
  const suites = new Set(comparison.variants.map((entry) => entry.suite))
  return comparison.variants.map((entry) => [
    `${suites.size > 1 ? `${entry.suite} › ` : ''}${entry.variant}${entry.baseline === true ? ' (baseline)' : ''}`,
    accuracyCell(entry),
    entry.passHatK === null ? 'n/a' : percent(entry.passHatK),
    entry.latencyMs ? formatMs(entry.latencyMs.p50) : 'n/a',
    entry.latencyMs ? formatMs(entry.latencyMs.p95) : 'n/a',
    entry.tokensPerCase === null ? 'n/a' : formatCount(Math.round(entry.tokensPerCase)),
    entry.costPerCaseUsd === null ? 'unknown' : formatUsd(entry.costPerCaseUsd),
    entry.costPerPassUsd === null ? 'n/a' : formatUsd(entry.costPerPassUsd),
  ])
}

/**
 * One sentence per pair of variants: the verdict of the paired test, the difference with its interval, and the
 * cases where they disagree first in the list.
 */
export function pairSentence(pair: VariantPair, maxCases = 5): string {
  const verdict =
    pair.verdict === 'a-better'
      ? `${pair.a} better`
      : pair.verdict === 'b-better'
        ? `${pair.b} better`
        : 'no significant difference'
  const test =
    pair.difference === null || pair.pValue === null
      ? 'no case scored by both'
      : `${signedPoints(pair.difference)}${pair.interval ? ` [${signedPoints(pair.interval.low)}, ${signedPoints(pair.interval.high)}]` : ''}, ` +
        `p=${pair.pValue.toPrecision(2)} (${testName(pair.method ?? 'stratified-permutation')}, ${formatCount(pair.cases)} cases)`
  const shown = pair.disagreements.slice(0, maxCases).map((entry) => entry.id)
  const more = pair.disagreements.length > maxCases ? ', …' : ''
  const disagree = shown.length === 0 ? 'they agree on every case' : `disagree on ${shown.join(', ')}${more}`
  return `${pair.b} vs ${pair.a}: ${verdict} · ${test} · ${disagree}`
}

function accuracyCell(entry: VariantSummary): string {
  if (entry.accuracy === null) return 'n/a'
  const { value, interval } = entry.accuracy
  return `${percent(value)} (${percent(interval.low)}–${percent(interval.high)})`
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`
}

function signedPoints(value: number): string {
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} pts`
}
