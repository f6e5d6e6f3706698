import type { Comparison } from '../baselines/comparison.ts'
import type { Suite } from '../cases/suite.ts'
import type { RunMeta } from '../baselines/summary.ts'
import type { SuiteStats, VariantComparison } from '../model/run-report.ts'
import { suiteStatsOf, writeSuiteBaseline } from './tally/baselines.ts'
import { toCaseSummary } from './tally/case-stats.ts'
import { gitInfoOf, runMetaOf } from './tally/run-meta.ts'
import type { RunProgress } from './run-progress.ts'
import type { RunSetup } from './run-setup.ts'
import { compareRuns, compareVariants, type VariantRun } from './tally/variant-comparison.ts'
import { suiteFileKey } from './plan/variants.ts'

/** What a run says of each suite, and of its variants when it has some. */
export interface SuitesOutcome {
  suiteStats: SuiteStats[]
  comparisons: Comparison[]
  variants?: VariantComparison
}

/**
 * Each suite's statistics, baseline comparison and gate, and the comparison of its variants; writes its baseline
 * when `writeBaselines`.
 */
export async function statsOfSuites(
  setup: RunSetup,
  progress: RunProgress,
  writeBaselines: boolean,
): Promise<SuitesOutcome> {
  const { run } = setup
  const variantRuns: VariantRun[] = []
  const gits = await Promise.all(run.suites.map((suite) => gitInfoOf(suite.file)))
  const suiteStats: SuiteStats[] = []
  const comparisons: Comparison[] = []
  for (const [index, suite] of run.suites.entries()) {
    const one = await statsOfSuite(setup, progress, { suite, index, git: gits[index] }, writeBaselines)
    if (one.comparison) comparisons.push(one.comparison)
    if (one.variantRun) variantRuns.push(one.variantRun)
    suiteStats.push(one.stats)
  }
  if (variantRuns.length === 0) return { suiteStats, comparisons }
  // without a baseline file, a `baseline: true` variant gates the others of its suite
  if (run.gate.baseline === undefined) await gateAgainstBaselineVariant(run.suites, suiteStats, variantRuns)
  return { suiteStats, comparisons, variants: compareVariants(variantRuns) }
}

/** What a run says of one suite; `variantRun` for a variant's copy, to compare it with the others. */
interface SuiteOutcome {
  stats: SuiteStats
  comparison: Comparison | null
  variantRun?: VariantRun
}

async function statsOfSuite(
  setup: RunSetup,
  { stats, tokens }: RunProgress,
  { suite, index, git }: { suite: Suite; index: number; git: RunMeta['git'] | undefined },
  writeBaselines: boolean,
): Promise<SuiteOutcome> {
  const { run, info } = setup
  const meta = runMetaOf(suite, {
    createdAt: info.startedAt,
    targetId: setup.targets[index]?.id ?? '',
    model: suite.model,
    git,
  })
  const cases = stats.casesOf(suite.name, suite.variant?.name)
  const { stats: entry, comparison } = suiteStatsOf(suite, meta, cases, setup.baselines, run.gate.baseline)
  // a stopped run has holes; blessing it would hide every case that did not run
  const { updateBaseline } = run.gate
  if (writeBaselines && updateBaseline) {
    entry.baselineWritten = await writeSuiteBaseline(
      updateBaseline.dir,
      meta,
      cases.cases,
      suiteFileKey(suite),
      setup.services.redactor,
    )
  }
  if (!suite.variant) return { stats: entry, comparison }
  entry.variant = suite.variant.name
  const variantRun: VariantRun = {
    suite: suite.name,
    variant: suite.variant.name,
    baseline: suite.variant.baseline === true,
    meta,
    cases: cases.cases,
    accuracy: entry.accuracy,
    tokens: tokens.of(suite.name, suite.variant.name),
  }
  return { stats: entry, comparison, variantRun }
}

async function gateAgainstBaselineVariant(
  suites: readonly Suite[],
  suiteStats: SuiteStats[],
  runs: readonly VariantRun[],
): Promise<void> {
  const { evaluateGate } = await import('../baselines/gate.ts')
  for (const run of runs) {
    const base = runs.find((other) => other.suite === run.suite && other.baseline)
    if (base === undefined || base === run) continue
    const at = suiteStats.findIndex((entry) => entry.suite === run.suite && entry.variant === run.variant)
    const suite = suites[at]
    const entry = suiteStats[at]
    if (suite === undefined || entry === undefined) continue
    const cases = [...run.cases]
    // variants differ in model or target on purpose: the comparison's warnings about that are no news
    const comparison = { ...compareRuns(base, [...base.cases], run, cases), warnings: [] }
    entry.gate = evaluateGate(comparison, { meta: run.meta, cases: cases.map(toCaseSummary) }, suite.gate)
  }
}
