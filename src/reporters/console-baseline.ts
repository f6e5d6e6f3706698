import { inert } from './inert.ts'
import type { CaseComparison, Comparison, Transition } from '../baselines/comparison.ts'
import { percent, points, pValue, ratio } from '../baselines/format.ts'
import type { GateResult } from '../baselines/gate.ts'
import type { SuiteStats } from '../model/run-report.ts'
import type { Style } from './format.ts'

/** at most this many changed cases are listed; the rest are counted */
const LISTED_CHANGES = 20

const ARROW: Partial<Record<Transition, string>> = {
  regressed: '↓',
  improved: '↑',
  new: '+',
  removed: '-',
  'input-changed': '≠',
}

/** A suite's baseline lines: the file used or written, and the comparison when there is one. */
export function formatBaselineLines(
  stats: Pick<SuiteStats, 'baselineFile' | 'baselineMissing' | 'baselineWritten'>,
  comparison: Comparison | undefined,
  s: Style,
): string[] {
  const lines: string[] = []
  if (stats.baselineMissing === true && stats.baselineFile !== undefined) {
    lines.push(
      `${label('Baseline')}${s.yellow(`none at \`${stats.baselineFile}\``)}: nothing to compare (\`--baseline-missing ok\`). ` +
        'Create it with `evals run <case-file> --update-baseline`.',
    )
  }
  if (comparison) lines.push(...formatComparison(comparison, s, stats.baselineFile))
  if (stats.baselineWritten !== undefined) {
    lines.push(`${label('Baseline')}wrote ${stats.baselineWritten}`)
  }
  return lines
}

/** The comparison with a baseline: transitions, changed cases, accuracy delta with its test, ratios. */
export function formatComparison(comparison: Comparison, s: Style, file?: string): string[] {
  const age = comparison.baselineAgeDays
  const ageText = age < 1 ? 'today' : `${Math.floor(age)} day${Math.floor(age) === 1 ? '' : 's'} old`
  const lines = [
    `${label('Baseline')}${file ?? comparison.suite} ${s.dim(`· taken ${comparison.baselineCreatedAt} (${ageText})`)}`,
  ]
  const { counts } = comparison
  const parts = [
    (counts.regressed > 0 ? s.red : s.dim)(`${counts.regressed} regressed`),
    (counts.improved > 0 ? s.green : s.dim)(`${counts.improved} improved`),
    s.dim(`${counts.unchanged} unchanged`),
    s.dim(`${counts.new} new`),
    s.dim(`${counts.removed} removed`),
    ...(counts['input-changed'] > 0 ? [s.yellow(`${counts['input-changed']} input changed`)] : []),
    ...(counts.unscored > 0 ? [s.dim(`${counts.unscored} unscored`)] : []),
  ]
  lines.push(`${label('Compared')}${parts.join(' · ')}`)
  const changed = comparison.cases.filter((entry) => ARROW[entry.transition] !== undefined)
  for (const entry of changed.slice(0, LISTED_CHANGES)) lines.push(`  ${changeLine(entry, s)}`)
  if (changed.length > LISTED_CHANGES) {
    lines.push(s.dim(`  … and ${changed.length - LISTED_CHANGES} more changed cases`))
  }
  const { paired, accuracy } = comparison
  if (paired) {
    const method = paired.method === 'mcnemar-exact' ? 'exact McNemar' : 'sign test'
    lines.push(
      `${label('Delta')}accuracy ${points(paired.meanDifference)} (${percent(paired.baselineAccuracy)} → ` +
        `${percent(paired.currentAccuracy)}) on ${paired.cases} paired cases · ${method} ${pValue(paired.pValue)}` +
        s.dim(` (one-sided for a regression: ${pValue(paired.pRegression)})`),
    )
  } else if (accuracy.delta !== null) {
    lines.push(
      `${label('Delta')}accuracy ${points(accuracy.delta)} ${s.dim('(no paired cases, so no test)')}`,
    )
  }
  const ratios = [
    ...(comparison.latency.p50Ratio === null ? [] : [`latency p50 ${ratio(comparison.latency.p50Ratio)}`]),
    ...(comparison.latency.p95Ratio === null ? [] : [`p95 ${ratio(comparison.latency.p95Ratio)}`]),
    ...(comparison.cost.ratio === null ? [] : [`cost ${ratio(comparison.cost.ratio)}`]),
  ]
  if (ratios.length > 0) lines.push(`${label('Ratios')}${ratios.join(' · ')} ${s.dim('(now / baseline)')}`)
  return lines
}

/** The gate decision, then one line per reason and per warning. */
export function formatGate(gate: GateResult, s: Style): string[] {
  const decision =
    gate.decision === 'fail' ? s.red('FAIL') : gate.decision === 'warn' ? s.yellow('WARN') : s.green('PASS')
  const why =
    gate.decision === 'fail'
      ? ` ${s.dim(`(${gate.reasons.length} reason${gate.reasons.length === 1 ? '' : 's'})`)}`
      : ''
  return [
    `${label('Gate')}${decision}${why}`,
    ...gate.reasons.map((reason) => `  ${s.red('✗')} ${inert(reason)}`),
    ...gate.warnings.map((warning) => `  ${s.yellow('!')} ${inert(warning)}`),
  ]
}

function changeLine(entry: CaseComparison, s: Style): string {
  const arrow = ARROW[entry.transition] ?? ' '
  const color = entry.transition === 'regressed' ? s.red : entry.transition === 'improved' ? s.green : s.dim
  const side = (side: CaseComparison['baseline']): string =>
    side === null ? '—' : side.trials === 0 ? side.status : `${side.passes}/${side.trials}`
  const detail =
    entry.transition === 'regressed' || entry.transition === 'improved'
      ? `${side(entry.baseline)} → ${side(entry.current)}`
      : entry.transition
  const tags = entry.tags.length > 0 ? s.dim(` [${inert(entry.tags.join(', '))}]`) : ''
  return `${color(arrow)} ${inert(entry.id)} ${s.dim(detail)}${tags}`
}

function label(text: string): string {
  return text.padEnd(10)
}
