import { statSync } from 'node:fs'
import { baselinePath, readBaseline, readBaselineIfPresent, writeBaseline } from '../../baselines/baseline.ts'
import { compareToBaseline } from '../../baselines/compare.ts'
import type { Comparison } from '../../baselines/comparison.ts'
import type { GateOptions } from '../../baselines/gate-options.ts'
import type { GateResult } from '../../baselines/gate.ts'
import type { Baseline } from '../../baselines/schema.ts'
import { baselineFromSummaries, type RunMeta, type RunSummary } from '../../baselines/summary.ts'
import type { Suite } from '../../cases/suite.ts'
import { ConfigError } from '../../errors.ts'
import { bootstrapMean } from '../../stats/bootstrap.ts'
import { WeightedAccuracyTally } from '../../stats/proportion.ts'
import { toCaseSummary, type SuiteCases } from './case-stats.ts'
import type { CaseStats } from '../../model/run-report.ts'
import { isFlaky } from '../../stats/trials.ts'
import { TypedList } from '../../util/typed-list.ts'
import type { RunReport, SuiteStats } from '../../model/run-report.ts'
import type { BaselineOptions } from '../plan/run-settings.ts'
import { suiteFileKey } from '../plan/variants.ts'
import type { Redactor } from '../../util/redact.ts'

/** A suite's baseline as read before the run; `baseline` is null when it is missing and that is allowed. */
export interface LoadedBaseline {
  file: string
  baseline: Baseline | null
}

/** The gate's code, which brings zod: loaded only for a run with `--baseline` or a suite with a `gate:` block. */
export type GateModule = typeof import('../../baselines/gate.ts')

/** Every suite's baseline, and the gate's code when some suite is gated. */
export interface LoadedBaselines {
  bySuite: Map<Suite, LoadedBaseline>
  gate: GateModule | undefined
}

/**
 * Reads every suite's baseline and checks its gate options before anything runs, so a missing, corrupt or
 * wrong-version baseline stops the run at once (ConfigError naming the file).
 */
export async function loadBaselines(
  suites: readonly Suite[],
  options: BaselineOptions | undefined,
): Promise<LoadedBaselines> {
  const bySuite = new Map<Suite, LoadedBaseline>()
  const gated = options !== undefined || suites.some((suite) => suite.gate !== undefined)
  const gate = gated ? await import('../../baselines/gate.ts') : undefined
  for (const suite of suites) {
    gate?.resolveGateOptions(gateOptionsOf(suite, options))
    if (options === undefined) continue
    const file = baselineFileFor(options.path, suiteFileKey(suite), suites.length)
    const baseline = options.missing === 'ok' ? await readBaselineIfPresent(file) : await readBaseline(file)
    bySuite.set(suite, { file, baseline })
  }
  return { bySuite, gate }
}

/** `<path>/<suite>.json` when `path` is a directory (or does not exist and has no `.json` ending), else `path`. */
export function baselineFileFor(path: string, suite: string, suiteCount: number): string {
  const isFile = statSync(path, { throwIfNoEntry: false })?.isFile() ?? path.endsWith('.json')
  if (!isFile) return baselinePath(path, suite)
  if (suiteCount > 1) {
    throw new ConfigError(
      `\`--baseline ${path}\` names one baseline file, but the run has ${suiteCount} suites. ` +
        'Give a directory of `<suite>.json` baselines instead, e.g. `--baseline baselines`.',
    )
  }
  return path
}

/** The case file's `gate:` block under the flags; the flags win. */
export function gateOptionsOf(suite: Suite, options: BaselineOptions | undefined): GateOptions {
  return { ...suite.gate, ...options?.gate }
}

/** A suite's statistics, and its comparison and gate when it has a baseline or a `gate:` block. */
export function suiteStatsOf(
  suite: Suite,
  meta: RunMeta,
  { cases, forEachTotals }: SuiteCases,
  baselines: LoadedBaselines,
  options: BaselineOptions | undefined,
): { stats: SuiteStats; comparison: Comparison | null } {
  const loaded = baselines.bySuite.get(suite)
  const { gate } = baselines
  const gated = (loaded !== undefined || suite.gate !== undefined) && gate !== undefined
  const accuracy = new WeightedAccuracyTally()
  const scores = new TypedList(Float64Array, cases.length)
  let scored = false
  let trials = 0
  let flaky = 0
  forEachTotals((entry) => {
    trials = Math.max(trials, entry.trials + entry.errored)
    if (isFlaky(entry.passes, entry.trials)) flaky++
    if (entry.trials === 0) return
    const passRate = entry.passes / entry.trials
    accuracy.add(entry.weight, passRate)
    scores.push(entry.score ?? passRate)
    scored ||= entry.score !== undefined
  })
  const stats: SuiteStats = {
    suite: suite.name,
    meta,
    accuracy: accuracy.result(),
    score: scoreOf(scores.view()),
    graded: scored,
    trials,
    flaky,
    ...(suite.gate && { gateOptions: suite.gate }),
  }
  if (!gated) return { stats, comparison: null }
  const run: RunSummary = { meta, cases: Array.from(cases, toCaseSummary) }
  const gateOptions = gate.resolveGateOptions(gateOptionsOf(suite, options))
  const comparison =
    loaded?.baseline == null
      ? null
      : compareToBaseline(run, loaded.baseline, {
          maxBaselineAgeDays: gateOptions.max_baseline_age_days,
          ...(options?.now && { now: options.now }),
        })
  return {
    stats: {
      ...stats,
      ...(loaded && { baselineFile: loaded.file }),
      ...(loaded && loaded.baseline === null && { baselineMissing: true }),
      gate: gate.evaluateGate(comparison, run, gateOptions),
    },
    comparison,
  }
}

/** One decision for the run: fail if any suite fails, else warn if any warns; reasons name the suite when several. */
export function combineGates(suites: readonly SuiteStats[]): GateResult | undefined {
  const gated = suites.filter((entry) => entry.gate !== undefined)
  if (gated.length === 0) return undefined
  const named = (entry: SuiteStats, text: string): string =>
    gated.length > 1 || entry.variant !== undefined
      ? `${entry.suite}${entry.variant === undefined ? '' : ` [${entry.variant}]`}: ${text}`
      : text
  const reasons = gated.flatMap((entry) => (entry.gate?.reasons ?? []).map((text) => named(entry, text)))
  const warnings = gated.flatMap((entry) => (entry.gate?.warnings ?? []).map((text) => named(entry, text)))
  const decision = gated.some((entry) => entry.gate?.decision === 'fail')
    ? 'fail'
    : gated.some((entry) => entry.gate?.decision === 'warn')
      ? 'warn'
      : 'pass'
  return { decision, reasons, warnings }
}

/** A baseline records a good run: none with failed or errored pairs, unless `force` (`--force`). */
export function baselineWritable(report: Pick<RunReport, 'counts'>, force = false): boolean {
  return force || report.counts.failed + report.counts.errored === 0
}

/** Writes `<dir>/<name>.json` for a suite (`<suite>@<variant>` for a variant), atomically; returns the file. */
export async function writeSuiteBaseline(
  dir: string,
  meta: RunMeta,
  cases: Iterable<CaseStats>,
  name: string,
  redactor: Redactor,
): Promise<string> {
  const file = baselinePath(dir, name)
  await writeBaseline(file, baselineFromSummaries(meta, Array.from(cases, toCaseSummary)), redactor)
  return file
}

/** The mean case score with its bootstrap interval, over the graded cases' scores. */
function scoreOf(values: Float64Array): SuiteStats['score'] {
  if (values.length === 0) return null
  // fewer resamples for huge suites: the interval is already narrow there, and this keeps the end of a run fast
  const resamples = Math.min(2000, Math.max(200, Math.floor(4_000_000 / values.length)))
  return bootstrapMean(values, { resamples })
}
