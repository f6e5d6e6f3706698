import { dirname } from 'node:path'
import type { CaseDefinition } from '../cases/case-definition.ts'
import type { EvaluatorCompiler } from '../cases/compile-checks.ts'
import type { Suite } from '../cases/suite.ts'
import type { JudgeOptions } from '../evaluators/llm-judge-options.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { Target } from '../targets/target.ts'
import { tracedTarget } from '../targets/traced.ts'
import type { TraceWait } from '../traces/trace-hub.ts'
import { DEFAULT_TRACE_WAIT } from './plan/defaults.ts'
import { compileCase } from './execute/conversation.ts'
import { planSuite, type PlannedCase } from './plan/plan-suite.ts'
import type { CaseJob } from './execute/run-case.ts'
import type { WantedPair } from './run-progress.ts'
import type { ResolvedRun } from './plan/run-settings.ts'
import type { RunSetup } from './run-setup.ts'
import type { SuiteSnapshots } from './results/snapshots.ts'
import { withVariantVars } from './plan/variants.ts'

/** A pair to run, or a skipped case's result; with its case's index among all the run's cases and in its suite. */
export type Job =
  | { caseIndex: number; at: number; job: CaseJob; skip?: undefined }
  | { caseIndex: number; at: number; job?: undefined; skip: CaseResult }

/**
 * The pairs of `lane` (some of the run's suites, in run order) made one at a time; `wanted` (resuming) leaves out
 * those that already have a result. The one job builder: `evals run`, `--resume`, `evals merge`, the Action and
 * `describeSuite` all run what it makes.
 */
export function* jobs(setup: RunSetup, lane: readonly Suite[], wanted?: WantedPair): Generator<Job> {
  for (const suite of lane) yield* suiteJobs(setup, suite, wanted)
}

/** What every pair of one suite shares. */
interface SuitePairs {
  suite: Suite
  /** case `at` of this suite is case `first + at` of the run */
  first: number
  target: Target
  recorder: CaseJob['recorder']
  limiters: CaseJob['limiters']
  http: CaseJob['http']
  baseDir: string
  model: string | undefined
  judge: JudgeOptions
  variant: string | undefined
  compile: EvaluatorCompiler
  snapshots: SuiteSnapshots | undefined
  /** the suite's target with trace capture, for the cases that capture their spans */
  traced: Target | undefined
  /** every case captures its spans (`--trace`) */
  traceAll: boolean
}

/** What every trial of one case shares: built once per case, not per pair. */
interface BuiltCase {
  definition: CaseDefinition
  evaluators: CaseJob['evaluators']
  conversation: CaseJob['conversation']
  snapshot: CaseJob['snapshot']
}

function* suiteJobs(setup: RunSetup, suite: Suite, wanted: WantedPair | undefined): Generator<Job> {
  const shared = suitePairsOf(setup, suite)
  for (const planned of planSuite(suite, setup.run)) {
    const caseIndex = shared.first + planned.at
    if (planned.skip !== undefined) {
      if (!wanted || wanted(suite, planned.id, 0))
        yield { caseIndex, at: planned.at, skip: skippedResult(shared, planned, planned.skip) }
      continue
    }
    const trials: number[] = []
    for (let trial = 0; trial < planned.trials; trial++)
      if (!wanted || wanted(suite, planned.id, trial)) trials.push(trial)
    if (trials.length === 0) continue
    const built = buildCase(shared, planned)
    for (const trial of trials)
      yield { caseIndex, at: planned.at, job: pairJob(shared, planned, built, trial) }
  }
}

function suitePairsOf(setup: RunSetup, suite: Suite): SuitePairs {
  const { run, services } = setup
  const index = run.suites.indexOf(suite)
  let first = 0
  for (const before of run.suites.slice(0, index)) first += before.cases.length
  return {
    suite,
    first,
    target: setup.targets[index] as Target,
    recorder: services.cassettes?.for(suite),
    limiters: services.limiters,
    http: services.http,
    baseDir: dirname(suite.file),
    model: suite.model,
    judge: judgeOf(suite, run),
    variant: suite.variant?.name,
    compile: setup.compile,
    snapshots: setup.snapshots?.[index],
    traced: tracedOf(setup, suite, setup.targets[index] as Target),
    traceAll: run.traces.all,
  }
}

/** The suite's `quiet_ms` and `max_wait_ms`, those it gives. */
function waitOf(settings: Suite['traceSettings']): Partial<TraceWait> {
  return {
    ...(settings?.quietMs !== undefined && { quietMs: settings.quietMs }),
    ...(settings?.maxWaitMs !== undefined && { maxWaitMs: settings.maxWaitMs }),
  }
}

/** The suite's target with trace capture; spans from an http or command target are waited for after its reply. */
function tracedOf(setup: RunSetup, suite: Suite, target: Target): Target | undefined {
  const hub = setup.services.traces
  if (!hub || !(setup.run.traces.all || suite.cases.traced)) return undefined
  const { type } = suite.target
  const given = setup.run.targets?.has(suite.file) === true
  const outOfProcess = !given && (type === 'http' || type === 'command')
  return tracedTarget(
    target,
    hub,
    outOfProcess ? { ...DEFAULT_TRACE_WAIT, ...waitOf(suite.traceSettings) } : undefined,
  )
}

function skippedResult({ suite, variant }: SuitePairs, { at, id }: PlannedCase, reason: string): CaseResult {
  // keys in canonical order, as the rows of run-case
  return {
    caseId: id,
    durationMs: 0,
    reason,
    status: 'skipped',
    suite: suite.name,
    tags: suite.cases.tags(at),
    trial: 0,
    ...(variant !== undefined && { variant }),
    weight: suite.cases.weight(at),
  }
}

function buildCase(shared: SuitePairs, planned: PlannedCase): BuiltCase {
  const { suite, compile, baseDir, judge, snapshots } = shared
  // built only now: a large suite holds no definitions while it runs
  const definition = withVariantVars(suite.cases.get(planned.at), suite.variant)
  const { evaluators, conversation } = compileCase(definition, compile, { baseDir, judge })
  const snapshot = snapshots?.covers(planned.id, definition.snapshot !== undefined)
    ? { store: snapshots, strict: definition.snapshot === 'strict' }
    : undefined
  return { definition, evaluators, conversation, snapshot }
}

function pairJob(shared: SuitePairs, planned: PlannedCase, built: BuiltCase, trial: number): CaseJob {
  const { definition } = built
  return {
    suite: shared.suite.name,
    variant: shared.variant,
    caseId: planned.id,
    trial,
    tags: definition.tags,
    weight: definition.weight,
    expectFail: definition.expectFail,
    input: definition.input,
    vars: definition.vars,
    target: shared.traced && (shared.traceAll || definition.trace === true) ? shared.traced : shared.target,
    evaluators: built.evaluators,
    conversation: built.conversation,
    snapshot: built.snapshot,
    timeoutMs: planned.timeoutMs,
    model: shared.model,
    recorder: shared.recorder,
    limiters: shared.limiters,
    http: shared.http,
    approvals: definition.approvals,
  }
}

/** The judge settings of one suite: its `judge:` block, as `resolveRun` settled it, and the run's judge provider. */
function judgeOf(suite: Suite, run: ResolvedRun): JudgeOptions {
  return {
    ...suite.judge,
    ...(run.judge.provider && { provider: run.judge.provider }),
    suite: suite.name,
  }
}
