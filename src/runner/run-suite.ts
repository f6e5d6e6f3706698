import { dirname, join, relative, resolve } from 'node:path'
import type { Comparison } from '../baselines/comparison.ts'
import type { Suite } from '../cases/suite.ts'
import { AbortError, toError } from '../errors.ts'
import { RateLimiters } from '../engine/rate-limit.ts'
import { loadEvaluatorCompiler, type EvaluatorCompiler } from '../cases/compile-checks.ts'
import type { JudgeOptions } from '../evaluators/llm-judge-options.ts'
import { withKeylessModels } from '../providers/keyless.ts'
import { CassetteSet } from '../replay/cassettes.ts'
import { createTarget } from '../targets/index.ts'
import type { Target } from '../targets/target.ts'
import {
  baselineWritable,
  combineGates,
  loadBaselines,
  suiteStatsOf,
  writeSuiteBaseline,
  type LoadedBaselines,
} from './baselines.ts'
import { writePlan, type PlanFields } from './plan.ts'
import { pairCount, planSuite } from './plan-suite.ts'
import { providerOf, runLanes } from './lanes.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { RunInfo, RunReport, SuiteStats, VariantComparison } from '../model/run-report.ts'
import { JsonLinesFile } from './results-file.ts'
import { ResultRows } from '../report-file/rows.ts'
import { pairKey, readFinished, type Finished } from './resume.ts'
import { conversationOf } from './conversation.ts'
import { SnapshotTally, SuiteSnapshots } from './snapshots.ts'
import { runCase, type CaseJob } from './run-case.ts'
import { appendRunIndex } from './run-index.ts'
import { checkModels } from './preflight.ts'
import { gitInfoOf, runMetaOf } from './run-meta.ts'
import { resolveRunOptions, type ResolvedRunOptions, type RunOptions } from './run-options.ts'
import { writeJsonFile } from '../util/json-file.ts'
import { useRedaction } from '../util/redact.ts'
import { RunStats } from './stats.ts'
import { toCaseSummary } from './case-stats.ts'
import { compareRuns, compareVariants, VariantTokenTally, type VariantRun } from './variant-comparison.ts'
import { suiteFileKey } from './variants.ts'

export { newRunId, type RunOptions } from './run-options.ts'

/** Runs one suite; see `runSuites`. */
export function runSuite(suite: Suite, options: RunOptions = {}): Promise<RunReport> {
  return runSuites([suite], options)
}

/**
 * Runs every (case, variant, trial) pair of the suites, streaming each CaseResult to `results.jsonl` and the
 * reporters as it finishes, and returns the aggregates (also written to `summary.json`), with each suite's
 * comparison and gate. Throws a ConfigError when the run cannot start (a target that cannot load; a missing,
 * corrupt or wrong-version baseline) or a baseline cannot be written. Secrets are redacted from every file it writes
 * (see `useRedaction`).
 */
export async function runSuites(allSuites: readonly Suite[], options: RunOptions = {}): Promise<RunReport> {
  useRedaction({ patterns: [...(options.redact ?? []), ...allSuites.flatMap((suite) => suite.redact ?? [])] })
  const resolved = resolveRunOptions(allSuites, options)
  const limiters =
    resolved.rateLimit === false
      ? undefined
      : new RateLimiters({
          maxConcurrency: resolved.concurrency,
          ...(typeof resolved.rateLimit === 'object' ? resolved.rateLimit : {}),
        })
  if (resolved.cassettes === undefined) return runAll(resolved, { limiters })
  const cassettes = await CassetteSet.open(resolved.suites, resolved.cassettes)
  try {
    // replaying needs no API key for the models the cassettes cover: targets and judges resolve them keyless
    return await withKeylessModels(
      (model) => cassettes.servesWithoutKey(model),
      () => runAll(resolved, { cassettes, limiters }),
    )
  } finally {
    await cassettes.close()
  }
}

/** What every pair's model calls share: the cassettes and the per-provider rate limiters. */
interface CallServices {
  cassettes?: CassetteSet
  limiters: RateLimiters | undefined
}

/** What a run holds from start to end: made before the first pair runs. */
interface RunSetup {
  options: ResolvedRunOptions
  services: CallServices
  targets: Target[]
  baselines: LoadedBaselines
  snapshots: SuiteSnapshots[] | undefined
  compile: EvaluatorCompiler
  info: RunInfo
}

async function runAll(options: ResolvedRunOptions, services: CallServices): Promise<RunReport> {
  const setup = await prepareRun(options, services)
  const started = performance.now()
  const progress = await startResults(setup)
  for (const reporter of options.reporters ?? []) await reporter.onRunStart?.(setup.info)
  const stop = watchInterrupt(options)
  try {
    await runLanes(
      options.suites,
      // each variant's provider gets its own workers; suites without variants share one lane
      (suite) => (suite.variant ? providerOf(modelOf(suite, options).model) : ''),
      (lane) => jobs(setup, lane, progress.wanted),
      options.concurrency,
      async ({ caseIndex, job, skip }) => {
        if (skip) return progress.record(skip, caseIndex, stop)
        try {
          const run = (): Promise<CaseResult> => runCase(job, stop.signal)
          const result = await (options.aroundCase ? options.aroundCase(job, run) : run())
          await progress.record(result, caseIndex, stop)
        } catch (error) {
          if (!stop.signal.aborted) throw error
        }
      },
      () => stop.stoppedBy !== undefined,
    )
  } finally {
    stop.dispose()
    progress.results.close()
    await Promise.all(setup.targets.map(async (target) => target.close?.()))
  }
  return finishRun(setup, progress, stop.stoppedBy, performance.now() - started)
}

/** Checks the models, loads the targets, baselines, snapshots and evaluators, and says what will run. */
async function prepareRun(options: ResolvedRunOptions, services: CallServices): Promise<RunSetup> {
  const { suites } = options
  await checkModels(suites, options)
  const targets = await Promise.all(suites.map((suite) => targetFor(suite, options)))
  const baselines = await loadBaselines(suites, options.baseline)
  const snapshots =
    options.snapshots === false
      ? undefined
      : await Promise.all(
          suites.map((suite) =>
            SuiteSnapshots.open(suiteFileKey(suite), options.snapshots || { dir: 'baselines' }),
          ),
        )
  // the LLM judge loads only when some case needs it
  const compile = await loadEvaluatorCompiler({ judges: suites.some((suite) => suite.cases.judged) })
  const info: RunInfo = {
    runId: options.runId,
    startedAt: options.resume?.startedAt ?? new Date().toISOString(),
    suites: suites.map((suite, i) => ({
      name: suite.name,
      file: relative(process.cwd(), suite.file),
      targetId: targets[i]?.id ?? '',
      ...modelOf(suite, options),
      ...(suite.variant && { variant: suite.variant.name }),
      ...(suite.variant?.baseline === true && { baseline: true as const }),
    })),
    total: suites.reduce((sum, suite) => sum + pairCount(suite.cases, options), 0),
    concurrency: options.concurrency,
    dir: join(options.outDir, options.runId),
    ...(options.shard && { shard: options.shard }),
  }
  return { options, services, targets, baselines, snapshots, compile, info }
}

/** A run's results as they arrive: the file, the aggregates and the reporters they go to. */
interface Progress {
  results: JsonLinesFile
  stats: RunStats
  snapshotTally: SnapshotTally
  rows: ResultRows | undefined
  tokens: VariantTokenTally
  finished: () => number
  /** resuming: leaves out the pairs that already have a result */
  wanted: ((suite: Suite, caseId: string, trial: number) => boolean) | undefined
  record: (result: CaseResult, caseIndex: number, stop: Interrupt) => Promise<void>
}

/** Writes the plan, reads back a resumed run's rows, and opens the results file. */
async function startResults(setup: RunSetup): Promise<Progress> {
  const { options, info } = setup
  const { suites } = options
  const resultsPath = join(info.dir, 'results.jsonl')
  const stats = new RunStats()
  // planned in the order `jobs` walks the cases, so a job's `caseIndex` is its case's index here
  for (const suite of suites) stats.plan(suite.name, suite.cases, suite.variant?.name)
  let finished = 0
  // the plan is written, and its pairs kept only when resuming: a 100k-case plan is not held for the whole run
  const plannedPairs = await writeRunPlan(info, options)
  // read (and repair) the interrupted run's rows before the append stream opens the file
  const done = options.resume
    ? await readFinished(
        resultsPath,
        (result) => {
          finished++
          stats.add(result)
        },
        options.resume.warn ??
          ((message) => {
            process.emitWarning(message)
          }),
        plannedPairs ?? new Set(),
      )
    : undefined
  if (options.resume) info.pending = options.resume.runMissing === false ? 0 : info.total - finished
  const results = new JsonLinesFile(resultsPath)
  // the rows of a resumed run's file were written before, maybe by another version: the report reads them all again
  const rows = options.resume ? undefined : new ResultRows(info.total)
  const suiteIndex = new Map(suites.map((suite, index) => [rowKey(suite.name, suite.variant?.name), index]))
  const snapshotTally = new SnapshotTally()
  const tokens = new VariantTokenTally()
  const reporters = options.reporters ?? []
  const record = async (result: CaseResult, caseIndex: number, stop: Interrupt): Promise<void> => {
    finished++
    stats.add(result, caseIndex)
    snapshotTally.add(result)
    tokens.add(result)
    const offset = results.offset
    const bytes = results.append(result)
    if (rows) {
      const index = suiteIndex.get(rowKey(result.suite, result.variant)) ?? suites.length
      rows.add(index, result.caseId, result.trial, offset, bytes, true)
      if (result.status !== 'skipped') rows.judges.add(result.verdicts)
    }
    for (const reporter of reporters) {
      // most reporters return nothing here: awaiting that anyway costs a microtask per pair
      const pending = reporter.onCaseEnd?.(result)
      if (pending) await pending
    }
    if (options.bail === true && (result.status === 'failed' || result.status === 'errored'))
      stop.stoppedBy ??= 'bail'
  }
  return {
    results,
    stats,
    snapshotTally,
    rows,
    tokens,
    finished: () => finished,
    wanted: done && wantedAfter(done, options),
    record,
  }
}

function wantedAfter(
  done: Finished,
  options: ResolvedRunOptions,
): (suite: Suite, caseId: string, trial: number) => boolean {
  return (suite, caseId, trial) =>
    options.resume?.runMissing !== false &&
    !done.keys.has(pairKey(suite.name, caseId, trial, suite.variant?.name))
}

function rowKey(suite: string, variant: string | undefined): string {
  return variant === undefined ? suite : `${suite}\u0000${variant}`
}

/** How a run is stopped: the caller's signal (after a grace period) or `bail`. */
interface Interrupt {
  /** aborts the pairs still running once the grace period after an interrupt is over */
  signal: AbortSignal
  stoppedBy: RunReport['stoppedBy']
  dispose: () => void
}

function watchInterrupt(options: ResolvedRunOptions): Interrupt {
  const interrupt = new AbortController()
  let graceTimer: NodeJS.Timeout | undefined
  const state: Interrupt = {
    signal: interrupt.signal,
    stoppedBy: undefined,
    dispose: () => {
      clearTimeout(graceTimer)
      options.signal?.removeEventListener('abort', onSignal)
    },
  }
  const onSignal = (): void => {
    state.stoppedBy ??= 'interrupt'
    graceTimer = setTimeout(() => {
      interrupt.abort(new AbortError('the run was interrupted before this case finished'))
    }, options.graceMs)
  }
  if (options.signal?.aborted === true) onSignal()
  else options.signal?.addEventListener('abort', onSignal, { once: true })
  return state
}

/** Saves snapshots and baselines, compares and gates each suite, and writes and announces the report. */
async function finishRun(
  setup: RunSetup,
  progress: Progress,
  stoppedBy: RunReport['stoppedBy'],
  durationMs: number,
): Promise<RunReport> {
  const { options, info } = setup
  const summary = progress.stats.summary()
  for (const store of setup.snapshots ?? []) {
    const written = await store.save()
    if (written !== undefined) progress.snapshotTally.summary.written.push(written)
  }
  const { summary: snapshotSummary } = progress.snapshotTally
  const writeBaselines =
    options.updateBaseline !== undefined &&
    stoppedBy === undefined &&
    baselineWritable(summary, options.updateBaseline.force)
  const { suiteStats, comparisons, variants } = await statsOfSuites(setup, progress, writeBaselines)
  const gate = combineGates(suiteStats)
  const report: RunReport = {
    ...info,
    ...summary,
    suiteStats,
    durationMs,
    notRun: info.total - progress.finished(),
    resultsFile: progress.results.path,
    ...(progress.rows && { rows: progress.rows }),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...(comparisons.length === 1 && { comparison: comparisons[0] }),
    ...(comparisons.length > 1 && { comparisons }),
    ...(gate && { gate }),
    ...(variants && { variants }),
    ...(snapshotSummary.new + snapshotSummary.unchanged + snapshotSummary.changed + snapshotSummary.updated >
      0 && {
      snapshots: snapshotSummary,
    }),
  }
  await writeJsonFile(join(info.dir, 'summary.json'), report)
  await appendRunIndex(report)
  for (const reporter of options.reporters ?? []) await reporter.onRunEnd?.(report)
  return report
}

/**
 * Each suite's statistics, baseline comparison and gate, and the comparison of its variants; writes its baseline
 * when `writeBaselines`.
 */
async function statsOfSuites(
  setup: RunSetup,
  { stats, tokens }: Progress,
  writeBaselines: boolean,
): Promise<{ suiteStats: SuiteStats[]; comparisons: Comparison[]; variants?: VariantComparison }> {
  const { options, info } = setup
  const variantRuns: VariantRun[] = []
  const gits = await Promise.all(options.suites.map((suite) => gitInfoOf(suite.file)))
  const suiteStats: SuiteStats[] = []
  const comparisons: Comparison[] = []
  for (const [index, suite] of options.suites.entries()) {
    const meta = runMetaOf(suite, {
      createdAt: info.startedAt,
      targetId: setup.targets[index]?.id ?? '',
      model: modelOf(suite, options).model,
      git: gits[index],
    })
    const cases = stats.casesOf(suite.name, suite.variant?.name)
    const { stats: entry, comparison } = suiteStatsOf(suite, meta, cases, setup.baselines, options.baseline)
    if (comparison) comparisons.push(comparison)
    // a stopped run has holes; blessing it would hide every case that did not run
    if (writeBaselines && options.updateBaseline) {
      entry.baselineWritten = await writeSuiteBaseline(
        options.updateBaseline.dir,
        meta,
        cases.cases,
        suiteFileKey(suite),
      )
    }
    if (suite.variant) {
      entry.variant = suite.variant.name
      variantRuns.push({
        suite: suite.name,
        variant: suite.variant.name,
        baseline: suite.variant.baseline === true,
        meta,
        cases: cases.cases,
        accuracy: entry.accuracy,
        tokens: tokens.of(suite.name, suite.variant.name),
      })
    }
    suiteStats.push(entry)
  }
  if (variantRuns.length === 0) return { suiteStats, comparisons }
  // without a baseline file, a `baseline: true` variant gates the others of its suite
  if (options.baseline === undefined)
    await gateAgainstBaselineVariant(options.suites, suiteStats, variantRuns)
  return { suiteStats, comparisons, variants: compareVariants(variantRuns) }
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

async function targetFor(suite: Suite, options: RunOptions): Promise<Target> {
  const given = options.targets?.get(suite.file)
  if (given) return given
  return createTarget(suite.target, {
    label: `${relative(process.cwd(), suite.file)}: ${suite.variant ? `variant \`${suite.variant.name}\`` : 'target'}`,
    ...modelOf(suite, options),
  })
}

function modelOf(suite: Suite, options: RunOptions): { model?: string } {
  const model = options.model ?? suite.model
  return model === undefined ? {} : { model }
}

/** A pair to run, or a skipped case's result; with its case's index among all the run's cases. */
type Job =
  | { caseIndex: number; job: CaseJob; skip?: undefined }
  | { caseIndex: number; job?: undefined; skip: CaseResult }

/**
 * The pairs of `lane` (some of the run's suites, in run order) made one at a time; `wanted` (resuming) leaves out
 * those that already have a result.
 */
function* jobs(
  setup: RunSetup,
  lane: readonly Suite[],
  wanted?: (suite: Suite, caseId: string, trial: number) => boolean,
): Generator<Job> {
  const { options, services, targets, snapshots, compile } = setup
  const { suites } = options
  for (const suite of lane) {
    const index = suites.indexOf(suite)
    // case `at` of this suite is case `first + at` of the run
    let first = 0
    for (const before of suites.slice(0, index)) first += before.cases.length
    const recorder = services.cassettes?.for(suite)
    const target = targets[index] as Target
    const baseDir = dirname(suite.file)
    const { model } = modelOf(suite, options)
    const judge = judgeOf(suite, options)
    const variant = suite.variant?.name
    const variantVars = suite.variant?.vars
    const { cases } = suite
    for (const planned of planSuite(suite, options)) {
      const { at, id: caseId } = planned
      const caseIndex = first + at
      if (planned.skip !== undefined) {
        if (wanted && !wanted(suite, caseId, 0)) continue
        // keys in canonical order, as the rows of run-case
        const skip: CaseResult = {
          caseId,
          durationMs: 0,
          reason: planned.skip,
          status: 'skipped',
          suite: suite.name,
          tags: cases.tags(at),
          trial: 0,
          ...(variant !== undefined && { variant }),
          weight: cases.weight(at),
        }
        yield { caseIndex, skip }
        continue
      }
      const trials: number[] = []
      for (let trial = 0; trial < planned.trials; trial++)
        if (!wanted || wanted(suite, caseId, trial)) trials.push(trial)
      if (trials.length === 0) continue
      // built only now: a large suite holds no definitions while it runs
      const built = cases.get(at)
      const caseDef = variantVars ? { ...built, vars: { ...built.vars, ...variantVars } } : built
      let evaluators: CaseJob['evaluators']
      let conversation: CaseJob['conversation']
      try {
        evaluators = compile(caseDef, { baseDir, judge })
        conversation = conversationOf(caseDef, compile, { baseDir, judge })
      } catch (error) {
        evaluators = toError(error)
      }
      const store = snapshots?.[index]
      const snapshot = store?.covers(caseId, caseDef.snapshot !== undefined)
        ? { store, strict: caseDef.snapshot === 'strict' }
        : undefined
      for (const trial of trials) {
        // one literal per pair, no spreads: this runs 100k times in a large suite
        const job: CaseJob = {
          suite: suite.name,
          variant,
          caseId,
          trial,
          tags: caseDef.tags,
          weight: caseDef.weight,
          input: caseDef.input,
          vars: caseDef.vars,
          target,
          evaluators,
          conversation,
          snapshot,
          timeoutMs: planned.timeoutMs,
          model,
          recorder,
          limiters: services.limiters,
        }
        yield { caseIndex, job }
      }
    }
  }
}

/** Writes `run.json`; returns the keys of the run's pairs when resuming (to check the saved rows against). */
async function writeRunPlan(info: RunInfo, options: ResolvedRunOptions): Promise<Set<string> | undefined> {
  await writePlan(info.dir, planFields(info, options), oncePerFile(options.suites))
  if (options.resume === undefined) return undefined
  const keys = new Set<string>()
  for (const suite of options.suites)
    for (const planned of planSuite(suite, options))
      for (let trial = 0; trial < planned.trials; trial++)
        keys.add(pairKey(suite.name, planned.id, trial, suite.variant?.name))
  return keys
}

/** The suites without their other variants' copies: the plan lists each case file once. */
function oncePerFile(suites: readonly Suite[]): Suite[] {
  const seen = new Set<string>()
  return suites.filter((suite) => {
    const key = `${suite.file}\u0000${suite.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function planFields(info: RunInfo, options: ResolvedRunOptions): PlanFields {
  const { baseline } = options
  return {
    runId: info.runId,
    startedAt: info.startedAt,
    selection: options.selection ?? {
      files: [...new Set(info.suites.map((suite) => resolve(suite.file)))],
    },
    ...(options.model !== undefined && { model: options.model }),
    ...(options.models !== undefined && { models: [...options.models] }),
    ...(options.trials !== undefined && { trials: options.trials }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    concurrency: info.concurrency,
    ...(options.shard && { shard: options.shard }),
    ...(baseline && {
      baseline: {
        path: resolve(baseline.path),
        ...(baseline.missing && { missing: baseline.missing }),
        ...(baseline.gate && { gate: baseline.gate }),
      },
    }),
  }
}

/** The judge settings of one suite: its `judge:` block, with `--judge` and a provider override applied. */
function judgeOf(suite: Suite, options: RunOptions): JudgeOptions {
  return {
    ...suite.judge,
    ...(options.judge === undefined ? {} : { model: options.judge }),
    ...(options.judgeProvider === undefined ? {} : { provider: options.judgeProvider }),
    suite: suite.name,
  }
}
