import { randomBytes } from 'node:crypto'
import { dirname, join, relative, resolve } from 'node:path'
import type { Comparison } from '../baselines/comparison.ts'
import type { CaseList, Suite } from '../cases/suite.ts'
import { AbortError, toError } from '../errors.ts'
import { RateLimiters, type RateLimitOptions } from '../engine/rate-limit.ts'
import { loadEvaluatorCompiler, type EvaluatorCompiler } from '../cases/compile-checks.ts'
import type { JudgeOptions } from '../evaluators/llm-judge-options.ts'
import { withKeylessModels } from '../providers/keyless.ts'
import type { CassetteMode } from '../replay/cassette.ts'
import { CassetteSet } from '../replay/cassettes.ts'
import type { Reporter } from '../reporters/reporter.ts'
import { createTarget } from '../targets/index.ts'
import type { Target } from '../targets/target.ts'
import {
  baselineWritable,
  combineGates,
  loadBaselines,
  suiteStatsOf,
  writeSuiteBaseline,
  type BaselineOptions,
} from './baselines.ts'
import { writePlan, type PlanFields, type RunSelection } from './plan.ts'
import { runPool } from './pool.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { RunInfo, RunReport, SuiteStats } from '../model/run-report.ts'
import { JsonLinesFile } from './results-file.ts'
import { ResultRows } from '../report-file/rows.ts'
import { pairKey, readFinished } from './resume.ts'
import { conversationOf } from './conversation.ts'
import { SnapshotTally, SuiteSnapshots, type SnapshotOptions } from './snapshots.ts'
import { runCase, type CaseJob } from './run-case.ts'
import { appendRunIndex } from './run-index.ts'
import { checkModels, type ModelOptions } from './preflight.ts'
import { gitInfoOf, runMetaOf } from './run-meta.ts'
import { writeJsonFile } from '../util/json-file.ts'
import { useRedaction } from '../util/redact.ts'
import { selectShard } from './shard.ts'
import type { Shard } from '../model/run-report.ts'
import { RunStats } from './stats.ts'

/** How a run goes. Flags given here override the case files. */
export interface RunOptions extends ModelOptions {
  /** (case, trial) pairs at once @default 4 */
  concurrency?: number
  /** per-case limit on target plus evaluators; overrides the files' `timeout` @default 60_000 */
  timeoutMs?: number
  /** stop starting cases after the first failed or errored one @default false */
  bail?: boolean
  /** runs per case; overrides the files' `trials` */
  trials?: number
  /** results go to `<outDir>/<runId>/` @default 'reports' */
  outDir?: string
  /** @default a sortable timestamp plus random suffix */
  runId?: string
  /** aborting it stops starting cases; running ones get `graceMs`, then are aborted and left out of the results */
  signal?: AbortSignal
  /** @default 2000 */
  graceMs?: number
  reporters?: readonly Reporter[]
  /** targets by suite file, to run in-process targets without a module (tests, the vitest front end) */
  targets?: ReadonlyMap<string, Target>
  /** `record` every model call to `__cassettes__/<suite>.jsonl` beside the suite, `replay` from it, or `auto` */
  cassettes?: CassetteMode
  /** adapt each provider's concurrency to its 429s (AIMD); `false` turns it off @default true */
  rateLimit?: boolean | Omit<RateLimitOptions, 'maxConcurrency'>
  /** compare each suite with its baseline and apply the gate (`--baseline`); read before anything runs */
  baseline?: BaselineOptions
  /**
   * after a run that was not stopped early, write each suite's baseline to `<dir>/<suite>.json`
   * (`--update-baseline`); a run with failed or errored pairs is not a good run and is written only with `force`
   */
  updateBaseline?: { dir: string; force?: boolean }
  /**
   * where `<suite>.snapshots.json` files are and whether to accept the current outputs (`--update-snapshots`);
   * `false` ignores snapshots @default { dir: 'baselines' }
   */
  snapshots?: SnapshotOptions | false
  /** run only this shard's cases (`--shard i/n`), chosen by a hash of suite and case id */
  shard?: Shard
  /** the case files and selection flags, recorded in `run.json` for `--resume` and `evals merge` */
  selection?: RunSelection
  /**
   * continue the run in `<outDir>/<runId>`: the pairs already in its results.jsonl count and are never run again;
   * a torn last line or a repeated row is dropped with a warning. `runMissing: false` only aggregates (merge).
   */
  resume?: { startedAt: string; runMissing?: boolean; warn?: (message: string) => void }
  /** runs each pair inside this wrapper (`--otel` opens a trace per pair here) */
  aroundCase?: (job: CaseJob, run: () => Promise<CaseResult>) => Promise<CaseResult>
  /** regular expressions for the user's own secrets (`--redact`), added to the suites' `redact:` patterns */
  redact?: readonly string[]
}

const DEFAULT_TIMEOUT_MS = 60_000

/** Runs one suite; see `runSuites`. */
export function runSuite(suite: Suite, options: RunOptions = {}): Promise<RunReport> {
  return runSuites([suite], options)
}

/**
 * Runs every (case, trial) pair of the suites, streaming each CaseResult to `results.jsonl` and the reporters as
 * it finishes, and returns the aggregates (also written to `summary.json`), with each suite's comparison and gate.
 * Throws a ConfigError when the run cannot start (a target that cannot load; a missing, corrupt or wrong-version
 * baseline) or a baseline cannot be written. Secrets are redacted from every file it writes (see `useRedaction`).
 */
export async function runSuites(allSuites: readonly Suite[], options: RunOptions = {}): Promise<RunReport> {
  useRedaction({ patterns: [...(options.redact ?? []), ...allSuites.flatMap((suite) => suite.redact ?? [])] })
  const suites = selectShard(allSuites, options.shard)
  const limiters =
    options.rateLimit === false
      ? undefined
      : new RateLimiters({
          maxConcurrency: options.concurrency ?? 4,
          ...(typeof options.rateLimit === 'object' ? options.rateLimit : {}),
        })
  if (options.cassettes === undefined) return runAll(suites, options, { limiters })
  const cassettes = await CassetteSet.open(suites, options.cassettes)
  try {
    // replaying needs no API key for the models the cassettes cover: targets and judges resolve them keyless
    return await withKeylessModels(
      (model) => cassettes.servesWithoutKey(model),
      () => runAll(suites, options, { cassettes, limiters }),
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

async function runAll(
  suites: readonly Suite[],
  options: RunOptions,
  services: CallServices,
): Promise<RunReport> {
  const concurrency = options.concurrency ?? 4
  await checkModels(suites, options)
  const targets = await Promise.all(suites.map((suite) => targetFor(suite, options)))
  const baselines = await loadBaselines(suites, options.baseline)
  const snapshots =
    options.snapshots === false
      ? undefined
      : await Promise.all(
          suites.map((suite) => SuiteSnapshots.open(suite.name, options.snapshots || { dir: 'baselines' })),
        )
  const snapshotTally = new SnapshotTally()
  // the LLM judge loads only when some case needs it
  const compile = await loadEvaluatorCompiler({ judges: suites.some((suite) => suite.cases.judged) })
  const runId = options.runId ?? newRunId()
  const dir = join(options.outDir ?? 'reports', runId)
  const info: RunInfo = {
    runId,
    startedAt: options.resume?.startedAt ?? new Date().toISOString(),
    suites: suites.map((suite, i) => ({
      name: suite.name,
      file: relative(process.cwd(), suite.file),
      targetId: targets[i]?.id ?? '',
      ...modelOf(suite, options),
    })),
    total: suites.reduce((sum, suite) => sum + pairCount(suite.cases, options), 0),
    concurrency,
    dir,
    ...(options.shard && { shard: options.shard }),
  }
  const started = performance.now()
  const resultsPath = join(dir, 'results.jsonl')
  const stats = new RunStats()
  // planned in the order `jobs` walks the cases, so a job's `caseIndex` is its case's index here
  for (const suite of suites) stats.plan(suite.name, suite.cases)
  let finished = 0
  // the plan is written, and its pairs kept only when resuming: a 100k-case plan is not held for the whole run
  const plannedPairs = await writeRunPlan(dir, info, options, suites)
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
  const suiteIndex = new Map(suites.map((suite, index) => [suite.name, index]))
  const gitInfo = Promise.all(suites.map((suite) => gitInfoOf(suite.file)))
  const reporters = options.reporters ?? []
  for (const reporter of reporters) await reporter.onRunStart?.(info)

  const interrupt = new AbortController()
  let stoppedBy: RunReport['stoppedBy']
  let graceTimer: NodeJS.Timeout | undefined
  const onSignal = (): void => {
    stoppedBy ??= 'interrupt'
    graceTimer = setTimeout(() => {
      interrupt.abort(new AbortError('the run was interrupted before this case finished'))
    }, options.graceMs ?? 2000)
  }
  if (options.signal?.aborted === true) onSignal()
  else options.signal?.addEventListener('abort', onSignal, { once: true })

  const record = async (result: CaseResult, caseIndex: number): Promise<void> => {
    finished++
    stats.add(result, caseIndex)
    snapshotTally.add(result)
    const offset = results.offset
    const bytes = results.append(result)
    if (rows) {
      rows.add(
        suiteIndex.get(result.suite) ?? suites.length,
        result.caseId,
        result.trial,
        offset,
        bytes,
        true,
      )
      if (result.status !== 'skipped') rows.judges.add(result.verdicts)
    }
    for (const reporter of reporters) {
      // most reporters return nothing here: awaiting that anyway costs a microtask per pair
      const pending = reporter.onCaseEnd?.(result)
      if (pending) await pending
    }
    if (options.bail === true && (result.status === 'failed' || result.status === 'errored'))
      stoppedBy ??= 'bail'
  }
  try {
    await runPool(
      jobs(
        suites,
        targets,
        compile,
        options,
        services,
        snapshots,
        done &&
          ((suite, caseId, trial) =>
            options.resume?.runMissing !== false && !done.keys.has(pairKey(suite, caseId, trial))),
      ),
      concurrency,
      async ({ caseIndex, job, skip }) => {
        if (skip) return record(skip, caseIndex)
        try {
          const run = (): Promise<CaseResult> => runCase(job, interrupt.signal)
          await record(await (options.aroundCase ? options.aroundCase(job, run) : run()), caseIndex)
        } catch (error) {
          if (!interrupt.signal.aborted) throw error
        }
      },
      () => stoppedBy !== undefined,
    )
  } finally {
    clearTimeout(graceTimer)
    options.signal?.removeEventListener('abort', onSignal)
    results.close()
    await Promise.all(targets.map(async (target) => target.close?.()))
  }
  const summary = stats.summary()
  for (const store of snapshots ?? []) {
    const written = await store.save()
    if (written !== undefined) snapshotTally.summary.written.push(written)
  }
  const { summary: snapshotSummary } = snapshotTally
  const gits = await gitInfo
  const suiteStats: SuiteStats[] = []
  const comparisons: Comparison[] = []
  for (const [index, suite] of suites.entries()) {
    const meta = runMetaOf(suite, {
      createdAt: info.startedAt,
      targetId: targets[index]?.id ?? '',
      model: modelOf(suite, options).model,
      git: gits[index],
    })
    const cases = stats.casesOf(suite.name)
    const { stats: entry, comparison } = suiteStatsOf(suite, meta, cases, baselines, options.baseline)
    if (comparison) comparisons.push(comparison)
    // a stopped run has holes; blessing it would hide every case that did not run
    if (
      options.updateBaseline &&
      stoppedBy === undefined &&
      baselineWritable(summary, options.updateBaseline.force)
    ) {
      entry.baselineWritten = await writeSuiteBaseline(options.updateBaseline.dir, meta, cases.cases)
    }
    suiteStats.push(entry)
  }
  const gate = combineGates(suiteStats)
  const report: RunReport = {
    ...info,
    ...summary,
    suiteStats,
    durationMs: performance.now() - started,
    notRun: info.total - finished,
    resultsFile: results.path,
    ...(rows && { rows }),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...(comparisons.length === 1 && { comparison: comparisons[0] }),
    ...(comparisons.length > 1 && { comparisons }),
    ...(gate && { gate }),
    ...(snapshotSummary.new + snapshotSummary.unchanged + snapshotSummary.changed + snapshotSummary.updated >
      0 && {
      snapshots: snapshotSummary,
    }),
  }
  await writeJsonFile(join(dir, 'summary.json'), report)
  await appendRunIndex(report)
  for (const reporter of reporters) await reporter.onRunEnd?.(report)
  return report
}

async function targetFor(suite: Suite, options: RunOptions): Promise<Target> {
  const given = options.targets?.get(suite.file)
  if (given) return given
  return createTarget(suite.target, {
    label: `${relative(process.cwd(), suite.file)}: target`,
    ...modelOf(suite, options),
  })
}

function modelOf(suite: Suite, options: RunOptions): { model?: string } {
  const model = options.model ?? suite.model
  return model === undefined ? {} : { model }
}

/** The pairs of case `index`: one per trial, or one for a skipped case. */
function pairsOf(cases: CaseList, index: number, options: RunOptions): number {
  return cases.skip(index) === undefined ? (options.trials ?? cases.trials(index)) : 1
}

function pairCount(cases: CaseList, options: RunOptions): number {
  let pairs = 0
  for (let index = 0; index < cases.length; index++) pairs += pairsOf(cases, index, options)
  return pairs
}

/** A pair to run, or a skipped case's result; with its case's index among all the run's cases. */
type Job =
  | { caseIndex: number; job: CaseJob; skip?: undefined }
  | { caseIndex: number; job?: undefined; skip: CaseResult }

/** The pairs to run, made one at a time; `wanted` (resuming) leaves out those that already have a result. */
function* jobs(
  suites: readonly Suite[],
  targets: readonly Target[],
  compile: EvaluatorCompiler,
  options: RunOptions,
  services: CallServices,
  snapshots: readonly SuiteSnapshots[] | undefined,
  wanted?: (suite: string, caseId: string, trial: number) => boolean,
): Generator<Job> {
  let caseIndex = -1
  for (const [index, suite] of suites.entries()) {
    const recorder = services.cassettes?.for(suite)
    const target = targets[index] as Target
    const baseDir = dirname(suite.file)
    const suiteTimeoutMs = options.timeoutMs ?? suite.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const { model } = modelOf(suite, options)
    const judge = judgeOf(suite, options)
    const { cases } = suite
    for (let at = 0; at < cases.length; at++) {
      caseIndex++
      const caseId = cases.id(at)
      const reason = cases.skip(at)
      if (reason !== undefined) {
        if (wanted && !wanted(suite.name, caseId, 0)) continue
        // keys in canonical order, as the rows of run-case
        const skip: CaseResult = {
          caseId,
          durationMs: 0,
          reason,
          status: 'skipped',
          suite: suite.name,
          tags: cases.tags(at),
          trial: 0,
          weight: cases.weight(at),
        }
        yield { caseIndex, skip }
        continue
      }
      const trials: number[] = []
      for (let trial = 0; trial < pairsOf(cases, at, options); trial++)
        if (!wanted || wanted(suite.name, caseId, trial)) trials.push(trial)
      if (trials.length === 0) continue
      // built only now: a large suite holds no definitions while it runs
      const caseDef = cases.get(at)
      let evaluators: CaseJob['evaluators']
      let conversation: CaseJob['conversation']
      try {
        evaluators = compile(caseDef, { baseDir, judge })
        conversation = conversationOf(caseDef, compile, { baseDir, judge })
      } catch (error) {
        evaluators = toError(error)
      }
      const timeoutMs = options.timeoutMs ?? caseDef.timeoutMs ?? suiteTimeoutMs
      const store = snapshots?.[index]
      const snapshot = store?.covers(caseId, caseDef.snapshot !== undefined)
        ? { store, strict: caseDef.snapshot === 'strict' }
        : undefined
      for (const trial of trials) {
        // one literal per pair, no spreads: this runs 100k times in a large suite
        const job: CaseJob = {
          suite: suite.name,
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
          timeoutMs,
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
async function writeRunPlan(
  dir: string,
  info: RunInfo,
  options: RunOptions,
  suites: readonly Suite[],
): Promise<Set<string> | undefined> {
  await writePlan(dir, planFields(info, options), suites)
  if (options.resume === undefined) return undefined
  const keys = new Set<string>()
  for (const { name, cases } of suites)
    for (let index = 0; index < cases.length; index++)
      for (let trial = 0; trial < pairsOf(cases, index, options); trial++)
        keys.add(pairKey(name, cases.id(index), trial))
  return keys
}

function planFields(info: RunInfo, options: RunOptions): PlanFields {
  const { baseline } = options
  return {
    runId: info.runId,
    startedAt: info.startedAt,
    selection: options.selection ?? { files: info.suites.map((suite) => resolve(suite.file)) },
    ...(options.model !== undefined && { model: options.model }),
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

/** A sortable, unique run id: `2026-01-31T12-00-00-123Z-1a2b`. */
export function newRunId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`
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
