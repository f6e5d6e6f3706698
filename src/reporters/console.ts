import { inert } from './inert.ts'
import type { Comparison } from '../baselines/comparison.ts'
import type { NamedVerdict } from '../model/case-result.ts'
import type { VariantComparison } from '../model/run-report.ts'
import { envRedactor, type Redactor } from '../util/redact.ts'
import { formatBaselineLines, formatGate } from './console-baseline.ts'
import { knownFailureLines } from './known-failures.ts'
import type { CaseResult, Reporter, RunInfo, RunReport } from './reporter.ts'
import { checkName } from '../report-file/check-name.ts'
import { formatSnapshots } from './console-snapshots.ts'
import { statsLines } from './console-stats.ts'
import { formatCount } from '../util/format-count.ts'
import { formatMs, formatUsd, makeStyle, type Style } from './format.ts'
import { partialNote } from './text.ts'
import { pairSentence, VARIANT_COLUMNS, variantRows } from './variant-table.ts'

export interface ConsoleReporterOptions {
  /** what every line goes through before it is printed @default the environment's secrets (`envRedactor`) */
  redactor?: Redactor
  /** @default process.stdout */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  /** ANSI colours @default stream is a TTY and NO_COLOR is unset */
  color?: boolean
  /** `bar` redraws one line; `lines` prints plain lines (for logs and CI) @default bar on a TTY outside CI */
  progress?: 'bar' | 'lines'
  /**
   * when the command began, as a `performance.now()` reading (`0`: when the process started): the summary's
   * `Duration` is then the command's wall time, with the cases' own time beside it @default the cases' time only
   */
  commandStartMs?: number
}

const MARK = { passed: '✓', failed: '✗', errored: '!', skipped: '-' } as const
/** in `lines` mode, runs up to this size print every case; bigger ones print problems and 10% steps */
const EVERY_CASE_UP_TO = 200

/** Prints progress while the run goes and a summary at the end. */
export class ConsoleReporter implements Reporter {
  readonly #out: NonNullable<ConsoleReporterOptions['stream']>
  readonly #redactor: Redactor
  readonly #style: Style
  readonly #mode: 'bar' | 'lines'
  #total = 0
  #done = 0
  #problems = 0
  #nextStep = 0
  #lastDraw = 0
  #started = 0
  readonly #commandStartMs: number | undefined

  constructor(options: ConsoleReporterOptions = {}) {
    this.#out = options.stream ?? process.stdout
    this.#redactor = options.redactor ?? envRedactor()
    const tty = this.#out.isTTY === true
    this.#style = makeStyle(options.color ?? (tty && !process.env.NO_COLOR))
    this.#mode = options.progress ?? (tty && !process.env.CI ? 'bar' : 'lines')
    this.#commandStartMs = options.commandStartMs
  }

  onRunStart(run: RunInfo): void {
    this.#total = run.pending ?? run.total
    this.#started = performance.now()
    const s = this.#style
    for (const suite of run.suites) {
      const model = suite.model === undefined ? '' : ` · model ${suite.model}`
      const variant = suite.variant === undefined ? '' : ` [${inert(suite.variant)}]`
      this.#write(
        `${s.bold(inert(suite.name))}${variant} ${s.dim(`${inert(suite.file)} · ${inert(suite.targetId)}${inert(model)}`)}\n`,
      )
    }
    this.#write(s.dim(`${startLine(run)}\n`))
  }

  onCaseEnd(result: CaseResult): void {
    this.#done++
    if (result.status === 'failed' || result.status === 'errored') this.#problems++
    if (this.#mode === 'bar') {
      const now = performance.now()
      if (now - this.#lastDraw > 80 || this.#done === this.#total) {
        this.#lastDraw = now
        this.#write(`\r${this.#bar()}`)
      }
      return
    }
    if (this.#total <= EVERY_CASE_UP_TO || result.status === 'failed' || result.status === 'errored') {
      this.#write(`${this.#caseLine(result)}\n`)
    }
    if (this.#total > EVERY_CASE_UP_TO && this.#done >= this.#nextStep) {
      this.#nextStep = this.#done + Math.ceil(this.#total / 10)
      this.#write(this.#style.dim(`progress ${formatCount(this.#done)}/${formatCount(this.#total)}\n`))
    }
  }

  onRunEnd(report: RunReport): void {
    if (this.#mode === 'bar') this.#write('\r\u001b[2K')
    const wallMs = this.#commandStartMs === undefined ? undefined : performance.now() - this.#commandStartMs
    this.#write(
      formatSummary(report, this.#style, {
        caseTimes: this.#mode === 'lines',
        ...(wallMs !== undefined && { wallMs }),
      }),
    )
  }

  #bar(): string {
    const s = this.#style
    const width = 24
    const filled = this.#total === 0 ? width : Math.round((this.#done / this.#total) * width)
    const elapsed = formatMs(performance.now() - this.#started)
    const problems = this.#problems === 0 ? '' : s.red(` ${this.#problems} not passing`)
    return `${s.green('█'.repeat(filled))}${s.dim('░'.repeat(width - filled))} ${formatCount(this.#done)}/${formatCount(this.#total)} ${s.dim(elapsed)}${problems}`
  }

  #caseLine(result: CaseResult): string {
    const s = this.#style
    const partial = partialNote(result)
    const color = partial
      ? s.yellow
      : { passed: s.green, failed: s.red, errored: s.yellow, skipped: s.dim }[result.status]
    const trial = result.trial > 0 ? s.dim(` #${result.trial + 1}`) : ''
    let detail = partial ? ` ${s.dim('—')} ${s.yellow('partial')}: ${partial}` : ''
    if (result.status === 'failed') detail = ` ${s.dim('—')} ${inert(firstFailure(result))}`
    if (result.status === 'errored') detail = ` ${s.dim('—')} ${inert(result.error.message)}`
    if (result.status === 'skipped') detail = ` ${s.dim(`(${inert(result.reason)})`)}`
    const time = result.status === 'skipped' ? '' : s.dim(` ${formatMs(result.durationMs)}`)
    const variant = result.variant === undefined ? '' : ` [${inert(result.variant)}]`
    const known =
      result.expectFail !== undefined && result.status !== 'passed' ? s.dim(' (known failure)') : ''
    return `${color(MARK[result.status])} ${inert(result.suite)} › ${inert(result.caseId)}${variant}${trial}${known}${time}${detail}`
  }

  #write(text: string): void {
    this.#out.write(this.#redactor(text))
  }
}

function firstFailure(result: { verdicts: readonly NamedVerdict[] }): string {
  const verdict = result.verdicts.find((v) => !v.pass)
  return verdict === undefined ? '' : `${checkName(verdict)}: ${verdict.reason}`
}

/** What the summary says about time besides the report. */
export interface SummaryTimes {
  /** the command's wall time, start to summary; `Duration` shows it, with the cases' own time beside it */
  wallMs?: number
  /** a time was printed beside each case (target and checks), so `Latency` says how it differs */
  caseTimes?: boolean
}

/** The end-of-run summary: problems first, then the totals. */
export function formatSummary(report: RunReport, s: Style, times: SummaryTimes = {}): string {
  const lines: string[] = ['']
  if (report.problems.length > 0) {
    lines.push(s.bold('Not passing'))
    for (const problem of report.problems) {
      const mark = problem.status === 'failed' ? s.red(MARK.failed) : s.yellow(MARK.errored)
      const trial = problem.trial > 0 ? s.dim(` (trial ${problem.trial + 1})`) : ''
      const variant = problem.variant === undefined ? '' : ` [${inert(problem.variant)}]`
      lines.push(`  ${mark} ${inert(problem.suite)} › ${inert(problem.caseId)}${variant}${trial}`)
      for (const { evaluator, reason } of problem.reasons)
        lines.push(`      ${s.bold(inert(evaluator))}: ${inert(reason)}`)
    }
    if (report.moreProblems > 0)
      lines.push(s.dim(`  … and ${formatCount(report.moreProblems)} more in the results file`))
    lines.push('')
  }
  const { passed, failed, errored, skipped, partial = 0 } = report.counts
  const counts = [
    s.green(`${formatCount(passed - partial)} passed`),
    ...(partial > 0 ? [s.yellow(`${formatCount(partial)} partial`)] : []),
    (failed > 0 ? s.red : s.dim)(`${formatCount(failed)} failed`),
    (errored > 0 ? s.yellow : s.dim)(`${formatCount(errored)} errored`),
    s.dim(`${formatCount(skipped)} skipped`),
  ].join(' · ')
  // with trials a case runs several times: the counts are of runs then, not of cases
  const trials = Math.max(1, ...report.suiteStats.map((suite) => suite.trials))
  lines.push(
    trials === 1
      ? `${label('Cases')}${counts}`
      : `${label('Runs')}${counts} ${s.dim(`(${formatCount(report.cases.length)} cases, up to ${trials} trials each)`)}`,
  )
  lines.push(...knownFailureLines(report.cases, s))
  if (partial > 0) {
    lines.push(
      `${label('Partial')}${s.yellow(`${formatCount(partial)} passed with checks skipped`)} (no judge model); ` +
        'set one, or make this exit 2 with --require-judges',
    )
  }
  if (errored > 0 && failed === 0 && report.gate?.decision !== 'fail') {
    lines.push(
      `${label('Errored')}${s.yellow('infrastructure failures only')} (a target threw or timed out, or a check crashed), ` +
        'no quality failures: exit code 2',
    )
  }
  if (report.notRun > 0) {
    const why =
      report.stoppedBy === 'bail'
        ? 'stopped by --bail'
        : report.stoppedBy === 'interrupt'
          ? 'interrupted'
          : 'no result in the runs merged'
    lines.push(`${label('Not run')}${s.yellow(`${formatCount(report.notRun)} (${why})`)}`)
  }
  lines.push(`${label('Accuracy')}${formatAccuracy(report, s)}`)
  lines.push(...statsLines(report, s))
  if (report.latencyMs) {
    const { p50, p95, p99 } = report.latencyMs
    const note =
      times.caseTimes === true ? 'target only; the time beside each case adds its checks' : 'target only'
    lines.push(
      `${label('Latency')}p50 ${formatMs(p50)} · p95 ${formatMs(p95)} · p99 ${formatMs(p99)} ${s.dim(`(${note})`)}`,
    )
  }
  lines.push(`${label('Tokens')}${formatTokens(report)}`)
  lines.push(`${label('Cost')}${formatCost(report)}`)
  if (report.judges.verdicts > 0) lines.push(`${label('Judges')}${formatJudges(report.judges)}`)
  lines.push(
    `${label('Duration')}${
      times.wallMs === undefined
        ? formatMs(report.durationMs)
        : `${formatMs(times.wallMs)} ${s.dim(`(the command, start to end; running the cases took ${formatMs(report.durationMs)})`)}`
    }`,
  )
  lines.push(`${label('Results')}${report.resultsFile}`)
  lines.push(...formatSnapshots(report, s))
  if (report.variants) lines.push('', ...variantLines(report.variants, s))
  const baselines = baselineLines(report, s)
  if (baselines.length > 0) lines.push('', ...baselines)
  return `${lines.join('\n')}\n`
}

/** The variant table, columns padded, then one line per pair of variants. */
function variantLines(comparison: VariantComparison, s: Style): string[] {
  const table = [[...VARIANT_COLUMNS], ...variantRows(comparison)]
  const widths = VARIANT_COLUMNS.map((_, column) =>
    Math.max(...table.map((row) => (row[column] ?? '').length)),
  )
  const line = (row: readonly string[]): string =>
    `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd()
  const [head = [], ...rows] = table
  return [
    s.bold('Variants'),
    s.dim(line(head)),
    ...rows.map(line),
    ...comparison.pairs.map((pair) => `  ${pairSentence(pair)}`),
  ]
}

function formatAccuracy(report: RunReport, s: Style): string {
  const excluded = report.counts.errored > 0 ? ', errored cases excluded' : ''
  if (report.accuracy === null) return 'n/a (nothing graded)'
  const value = `${(report.accuracy * 100).toFixed(1)}%`
  const stats = report.weightedAccuracy
  if (!stats) return `${value}${s.dim(` weighted${excluded}`)}`
  const { low, high } = stats.interval
  return (
    `${value} weighted ± ${(stats.standardError * 100).toFixed(1)} ${s.dim('(SE)')} · 95% CI ` +
    `${(low * 100).toFixed(1)}–${(high * 100).toFixed(1)}%${s.dim(` over ${formatCount(stats.cases)} cases${excluded}`)}`
  )
}

/** Per suite: the baseline compared with or written, then the run's gate decision. */
function baselineLines(report: RunReport, s: Style): string[] {
  const comparisons: readonly Comparison[] =
    report.comparisons ?? (report.comparison ? [report.comparison] : [])
  const lines: string[] = []
  for (const suite of report.suiteStats) {
    const comparison = comparisons.find((entry) => entry.suite === suite.suite)
    const suiteLines = formatBaselineLines(suite, comparison, s)
    if (suiteLines.length > 0 && report.suiteStats.length > 1)
      lines.push(`${label('Suite')}${s.bold(suite.suite)}`)
    lines.push(...suiteLines)
  }
  if (report.gate) lines.push(...formatGate(report.gate, s))
  return lines
}

function formatTokens(report: RunReport): string {
  const { inputTokens, outputTokens } = report.usage
  const unknown = report.unknownUsageCount
  if (unknown > 0 && inputTokens + outputTokens === 0) return 'unknown (the target reports no usage)'
  const known = `${formatCount(inputTokens)} in · ${formatCount(outputTokens)} out`
  return unknown > 0 ? `${known} + ${formatCount(unknown)} case runs with unknown usage` : known
}

function formatCost(report: RunReport): string {
  if (report.costUsd === null)
    return report.unknownCostCount > 0 ? 'unknown (the target reports no price)' : '$0'
  const unknown =
    report.unknownCostCount > 0
      ? ` + ${formatCount(report.unknownCostCount)} case runs with unknown price`
      : ''
  return `${formatUsd(report.costUsd)}${unknown}`
}

function label(text: string): string {
  return text.padEnd(10)
}

function formatJudges({ verdicts, usage, costUsd }: RunReport['judges']): string {
  const cost = costUsd === null ? 'cost unknown' : formatUsd(costUsd)
  return `${formatCount(verdicts)} verdicts · ${formatCount(usage.inputTokens)} in · ${formatCount(usage.outputTokens)} out · ${cost} (not counted above)`
}

/** What this process is about to do: a merge and a resumed run do less than the run's total. */
function startLine({ total, pending, concurrency }: RunInfo): string {
  if (pending === undefined)
    return `running ${formatCount(total)} case runs, ${Math.min(concurrency, total)} at a time`
  if (pending === 0) return `nothing to run: the ${formatCount(total)} case runs come from the results files`
  return `resuming: running the ${formatCount(pending)} missing of ${formatCount(total)} case runs, ${Math.min(concurrency, pending)} at a time`
}
