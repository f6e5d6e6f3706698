import type { NamedVerdict } from '../runner/result.ts'
import type { CaseResult, Reporter, RunInfo, RunReport } from './reporter.ts'
import { formatCount, formatMs, formatUsd, makeStyle, type Style } from './format.ts'

export interface ConsoleReporterOptions {
  /** @default process.stdout */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  /** ANSI colours @default stream is a TTY and NO_COLOR is unset */
  color?: boolean
  /** `bar` redraws one line; `lines` prints plain lines (for logs and CI) @default bar on a TTY outside CI */
  progress?: 'bar' | 'lines'
}

const MARK = { passed: '✓', failed: '✗', errored: '!', skipped: '-' } as const
/** in `lines` mode, runs up to this size print every case; bigger ones print problems and 10% steps */
const EVERY_CASE_UP_TO = 200

/** Prints progress while the run goes and a summary at the end. */
export class ConsoleReporter implements Reporter {
  readonly #out: NonNullable<ConsoleReporterOptions['stream']>
  readonly #style: Style
  readonly #mode: 'bar' | 'lines'
  #total = 0
  #done = 0
  #problems = 0
  #nextStep = 0
  #lastDraw = 0
  #started = 0

  constructor(options: ConsoleReporterOptions = {}) {
    this.#out = options.stream ?? process.stdout
    const tty = this.#out.isTTY === true
    this.#style = makeStyle(options.color ?? (tty && !process.env.NO_COLOR))
    this.#mode = options.progress ?? (tty && !process.env.CI ? 'bar' : 'lines')
  }

  onRunStart(run: RunInfo): void {
    this.#total = run.total
    this.#started = performance.now()
    const s = this.#style
    for (const suite of run.suites) {
      const model = suite.model === undefined ? '' : ` · model ${suite.model}`
      this.#write(`${s.bold(suite.name)} ${s.dim(`${suite.file} · ${suite.targetId}${model}`)}\n`)
    }
    this.#write(
      s.dim(
        `running ${formatCount(run.total)} case runs, ${Math.min(run.concurrency, run.total)} at a time\n`,
      ),
    )
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
    this.#write(formatSummary(report, this.#style))
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
    const color = { passed: s.green, failed: s.red, errored: s.yellow, skipped: s.dim }[result.status]
    const trial = result.trial > 0 ? s.dim(` #${result.trial + 1}`) : ''
    let detail = ''
    if (result.status === 'failed') detail = ` ${s.dim('—')} ${firstFailure(result)}`
    if (result.status === 'errored') detail = ` ${s.dim('—')} ${result.error.message}`
    if (result.status === 'skipped') detail = ` ${s.dim(`(${result.reason})`)}`
    const time = result.status === 'skipped' ? '' : s.dim(` ${formatMs(result.durationMs)}`)
    return `${color(MARK[result.status])} ${result.suite} › ${result.caseId}${trial}${time}${detail}`
  }

  #write(text: string): void {
    this.#out.write(text)
  }
}

function firstFailure(result: { verdicts: readonly NamedVerdict[] }): string {
  const verdict = result.verdicts.find((v) => !v.pass)
  return verdict === undefined ? '' : `${verdict.evaluator}: ${verdict.reason}`
}

/** The end-of-run summary: problems first, then the totals. */
export function formatSummary(report: RunReport, s: Style): string {
  const lines: string[] = ['']
  if (report.problems.length > 0) {
    lines.push(s.bold('Not passing'))
    for (const problem of report.problems) {
      const mark = problem.status === 'failed' ? s.red(MARK.failed) : s.yellow(MARK.errored)
      const trial = problem.trial > 0 ? s.dim(` (trial ${problem.trial + 1})`) : ''
      lines.push(`  ${mark} ${problem.suite} › ${problem.caseId}${trial}`)
      for (const { evaluator, reason } of problem.reasons) lines.push(`      ${s.bold(evaluator)}: ${reason}`)
    }
    if (report.moreProblems > 0)
      lines.push(s.dim(`  … and ${formatCount(report.moreProblems)} more in the results file`))
    lines.push('')
  }
  const { passed, failed, errored, skipped } = report.counts
  const counts = [
    s.green(`${formatCount(passed)} passed`),
    (failed > 0 ? s.red : s.dim)(`${formatCount(failed)} failed`),
    (errored > 0 ? s.yellow : s.dim)(`${formatCount(errored)} errored`),
    s.dim(`${formatCount(skipped)} skipped`),
  ].join(' · ')
  lines.push(`${label('Cases')}${counts}`)
  if (report.notRun > 0) {
    const why = report.stoppedBy === 'bail' ? 'stopped by --bail' : 'interrupted'
    lines.push(`${label('Not run')}${s.yellow(`${formatCount(report.notRun)} (${why})`)}`)
  }
  const accuracy =
    report.accuracy === null ? 'n/a (nothing graded)' : `${(report.accuracy * 100).toFixed(1)}%`
  lines.push(
    `${label('Accuracy')}${accuracy}${s.dim(errored > 0 ? ' weighted, errored cases excluded' : ' weighted')}`,
  )
  if (report.latencyMs) {
    const { p50, p95, p99 } = report.latencyMs
    lines.push(`${label('Latency')}p50 ${formatMs(p50)} · p95 ${formatMs(p95)} · p99 ${formatMs(p99)}`)
  }
  const { inputTokens, outputTokens } = report.usage
  lines.push(`${label('Tokens')}${formatCount(inputTokens)} in · ${formatCount(outputTokens)} out`)
  lines.push(`${label('Cost')}${formatCost(report)}`)
  lines.push(`${label('Duration')}${formatMs(report.durationMs)}`)
  lines.push(`${label('Results')}${report.resultsFile}`)
  return `${lines.join('\n')}\n`
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
