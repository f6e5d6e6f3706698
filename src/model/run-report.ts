import type { CaseSummary } from '../baselines/summary.ts'
import type { Comparison } from '../baselines/comparison.ts'
import type { GateOptions } from '../baselines/gate-options.ts'
import type { GateResult } from '../baselines/gate.ts'
import type { FailOn } from '../baselines/outcome.ts'
import type { RunMeta } from '../baselines/summary.ts'
import type { BootstrapResult } from '../stats/bootstrap.ts'
import type { WeightedAccuracy } from '../stats/proportion.ts'
import type { Usage } from '../types.ts'
import type { CaseStatus } from './case-result.ts'
import type { Interval } from '../stats/interval.ts'

/** Pairs by status; `partial` counts the passed pairs (already in `passed`) of which some checks were skipped (absent in runs before it existed). */
export type RunCounts = Record<CaseStatus, number> & { partial?: number }

/** What reporters learn before the first case runs. */
export interface RunInfo {
  runId: string
  /** ISO time */
  startedAt: string
  /** each suite once per variant, when it has variants */
  suites: {
    name: string
    file: string
    targetId: string
    model?: string
    variant?: string
    baseline?: true
  }[]
  /** (case, trial) pairs to run, skipped cases counted once */
  total: number
  /** the pairs this process runs, when fewer than `total` are left: a resumed run (`--resume`), a merge (0) */
  pending?: number
  concurrency: number
  /** `reports/<run-id>`: results.jsonl and summary.json go there */
  dir: string
  /** the slice of the cases this run took (`--shard i/n`) */
  shard?: Shard
  /** what fails the run (`--fail-on`): its exit code and outcome line follow it @default 'failure' */
  failOn?: FailOn
}

/** A failing or errored pair, kept for the summary without its transcript. */
export interface CaseProblem {
  suite: string
  variant?: string
  caseId: string
  trial: number
  status: 'failed' | 'errored'
  /** the failing verdicts, or the error as the only entry */
  reasons: { evaluator: string; reason: string }[]
}

/** Aggregates of a run, computed as results arrive. */
export interface RunReport extends RunInfo {
  durationMs: number
  counts: RunCounts
  /** weighted accuracy over the cases with a verdict, Σ weight × pass rate / Σ weight (`weightedAccuracy.accuracy`); null when none was graded */
  accuracy: number | null
  /** `accuracy` with its standard error and 95% Wilson interval, over every suite's cases */
  weightedAccuracy: WeightedAccuracy | null
  /** target latency of the pairs that ran, type-7 percentiles as everywhere else; null when none ran */
  latencyMs: { p50: number; p95: number; p99: number } | null
  /** sum of the known usage (pairs whose target reported none are counted in `unknownUsageCount`) */
  usage: Usage
  /** sum of the known costs; null when no pair had a known cost */
  costUsd: number | null
  /** pairs that ran but whose cost is unknown (never counted as 0) */
  unknownCostCount: number
  /** pairs that ran but whose target reported no token usage (never counted as 0) */
  unknownUsageCount: number
  /** LLM-judge calls, counted apart from the target's usage and cost */
  judges: JudgeTotals
  /** the first failing and errored pairs (at most 100, so memory stays flat) */
  problems: CaseProblem[]
  /** failing and errored pairs beyond `problems` */
  moreProblems: number
  /** pairs never finished because of `bail` or an interrupt */
  notRun: number
  stoppedBy?: 'bail' | 'interrupt'
  resultsFile: string
  /**
   * where each row of `resultsFile` is, recorded as the rows were appended, so report.json reads them once (the
   * report writer's `ResultRows`); not in summary.json
   */
  rows?: ResultRowIndex
  /** every case that ran or was skipped, aggregated over its trials, in run order; each made as the list is read */
  cases: CaseStatsList
  /** per suite: accuracy with its interval, score bootstrap, baseline comparison and gate */
  suiteStats: SuiteStats[]
  /** the baseline comparison when exactly one suite was compared (the usual case) */
  comparison?: Comparison
  /** one comparison per compared suite, set instead of `comparison` when several suites were compared */
  comparisons?: Comparison[]
  /** the gate decision over every gated suite; with several suites each reason starts with the suite name */
  gate?: GateResult
  /** snapshot outcomes, when some case was compared with a snapshot */
  snapshots?: SnapshotSummary
  /** per variant accuracy, latency and cost, and each pair of variants compared, when suites have variants */
  variants?: VariantComparison
}

/** One suite of a run: its statistics, and how it stands against its baseline. */
export interface SuiteStats {
  suite: string
  /** the variant these statistics are of, when the suite has variants */
  variant?: string
  /** who and what produced the run, as a baseline records it */
  meta: RunMeta
  /** weighted accuracy over the suite's cases with a verdict, with standard error and 95% Wilson interval */
  accuracy: WeightedAccuracy | null
  /** mean of the per-case mean scores with a 95% bootstrap interval; null when no case reached a verdict */
  score: BootstrapResult | null
  /** true when some evaluator graded with a score, so `score` says more than `accuracy` */
  graded: boolean
  /** the most trials any case of the suite ran */
  trials: number
  /** cases with some, but not all, trials passing */
  flaky: number
  /** the case file's `gate:` block, so `evals compare` can apply it later */
  gateOptions?: GateOptions
  /** the baseline file compared with (`--baseline`) */
  baselineFile?: string
  /** true when `baselineFile` did not exist and `--baseline-missing ok` let the run go on without a comparison */
  baselineMissing?: boolean
  /** the baseline file written by `--update-baseline` (or left as it was, see `baselineUnchanged`) */
  baselineWritten?: string
  /** true when `--update-baseline` found the same results in `baselineWritten` and left the file untouched */
  baselineUnchanged?: true
  /** why `--update-baseline` skipped this suite: its failed and errored cases, e.g. "1 failed (`refund`)" */
  baselineSkipped?: string
  /** this suite's gate decision; the run's is `RunReport.gate` */
  gate?: GateResult
}

/** What the LLM judges of a run used. */
export interface JudgeTotals {
  /** judge verdicts given (each may span several samples) */
  verdicts: number
  usage: Usage
  /** null when no judge ran or any judge model's price is unknown */
  costUsd: number | null
}

/** The snapshot outcomes of a run. */
export interface SnapshotSummary {
  new: number
  unchanged: number
  /** outputs that moved from their snapshot (not failures unless the case is `snapshot: strict`) */
  changed: number
  /** outputs that moved and replaced their snapshot (`--update-snapshots`) */
  updated: number
  /** the first changed and updated pairs with their diffs */
  moved: { suite: string; caseId: string; trial: number; status: 'changed' | 'updated'; diff: string }[]
  /** the snapshot files written */
  written: string[]
}

/** One slice of a run spread over machines: `--shard 2/4` is `{ index: 2, count: 4 }` (1-based). */
export interface Shard {
  index: number
  count: number
}

/** One case aggregated over its trials: the baseline's `CaseSummary` plus the trial statistics. */
export interface CaseStats extends CaseSummary {
  suite: string
  /** the variant the case ran under, when its suite has variants */
  variant?: string
  /** the case's weight in the weighted accuracy */
  weight: number
  /** trials that errored (infrastructure); they are not counted in `trials` */
  errored: number
  /** passes / trials; null when no trial reached a verdict */
  passRate: number | null
  /** unbiased pass@k with k = `trials`: the chance at least one of k trials passes; null without a verdict */
  passAtK: number | null
  /** unbiased pass^k with k = `trials`: the chance k fresh trials all pass, C(passes, k) / C(trials, k); null without a verdict */
  passHatK: number | null
  /** some, but not all, trials passed */
  flaky: boolean
}

/** Cases with their stats, in run order: iterate it as often as needed, or spread it into an array. */
export interface CaseStatsList extends Iterable<CaseStats> {
  /** how many cases it yields */
  readonly length: number
  /** the cases marked `expect_fail`, in the same order, without making the others */
  knownFailures?(): Iterable<CaseStats>
  /**
   * each case's suite, status, trials and cost, in the same order, without making its stats: one record, reused
   * from case to case (read it before taking the next)
   */
  tallies?(): Iterable<Readonly<CaseTally>>
}

/** What the run index counts of a case. */
export interface CaseTally extends Pick<CaseStats, 'suite' | 'status' | 'costUsd' | 'trials' | 'errored'> {
  variant?: string | undefined
}

/** How each variant of a suite did, and how each pair of them compares. */
export interface VariantComparison {
  variants: VariantSummary[]
  /** every pair of variants of the same suite, the first named variant as `a` */
  pairs: VariantPair[]
}

/** One variant of a suite over its cases. */
export interface VariantSummary {
  suite: string
  variant: string
  /** marked `baseline: true`: the others are gated against it */
  baseline?: true
  model?: string
  /** cases with a verdict */
  cases: number
  /** weighted accuracy with its 95% Wilson interval; null when no case reached a verdict */
  accuracy: { value: number; interval: Interval } | null
  /** mean over the cases of pass^k, k = the case's trials: the chance every trial passes */
  passHatK: number | null
  /** percentiles of the cases' mean latencies */
  latencyMs: { p50: number; p95: number } | null
  /** input plus output tokens of the target, per case that ran */
  tokensPerCase: number | null
  /** mean cost of one case run; null when some cost is unknown */
  costPerCaseUsd: number | null
  /** total cost over passed case runs; null when some cost is unknown or none passed */
  costPerPassUsd: number | null
}

/** Two variants of a suite over the cases both scored: the paired test used for baselines, and its verdict. */
export interface VariantPair {
  suite: string
  a: string
  b: string
  /** `b-better` when B's pass rate is higher at p < alpha, `a-better` when lower, else no significant difference */
  verdict: 'a-better' | 'b-better' | 'no-difference'
  /** the paired test of the gate (`stratified-permutation`), with B − A accuracy and its paired-bootstrap interval */
  method: 'stratified-permutation' | null
  cases: number
  /** B's mean pass rate minus A's, over the paired cases */
  difference: number | null
  interval: Interval | null
  pValue: number | null
  /** the cases where their pass rates differ, first the most different (at most 50) */
  disagreements: { id: string; a: number; b: number }[]
}

/** The index of a results file's rows the runner keeps as it appends them; opaque below the report writer. */
export interface ResultRowIndex {
  /** rows indexed */
  readonly length: number
}
