import { relative, resolve } from 'node:path'
import { afterAll, describe, test } from 'vitest'
import { loadSuite } from '../cases/load.ts'
import type { Suite } from '../cases/suite.ts'
import { code } from '../evaluators/describe.ts'
import type { JudgeOptions } from '../evaluators/index.ts'
import type { CaseResult } from '../model/case-result.ts'
import { withKeylessModels } from '../providers/keyless.ts'
import type { CassetteMode } from '../replay/cassette.ts'
import { jobs, type Job } from '../runner/case-jobs.ts'
import { runCase } from '../runner/execute/run-case.ts'
import { resolveRun } from '../runner/plan/resolve-run.ts'
import type { SnapshotOptions } from '../runner/results/snapshots.ts'
import { closeServices, makeServices } from '../runner/run-services.ts'
import { prepareRun } from '../runner/run-setup.ts'
import type { RunnableAgent } from '../targets/agent.ts'
import { wrapFunction, type TargetFunction } from '../targets/function.ts'
import type { Target } from '../targets/target.ts'
import type { Usage } from '../types.ts'
import type { Redactor } from '../util/redact.ts'
import { caseOutcome } from './case-matchers.ts'
import { formatOutcome, redactedDiff } from './format.ts'

/** What `describeSuite` can run instead of the case file's `target:`: a Target, an Agent, or a function. */
export type SuiteTarget = Target | RunnableAgent | TargetFunction

export interface DescribeSuiteOptions {
  /** runs the cases in-process instead of the case file's `target:` (and its variants' targets) */
  target?: SuiteTarget
  /** model for agent targets; overrides the file's `model:` and its variants' */
  model?: string
  /** models to compare, each a variant named after it, instead of the file's `variants:` (as several `--model`) */
  models?: readonly string[]
  /** judge settings over the suite's `judge:`, e.g. `{ model }`, or a `provider` in tests */
  judge?: JudgeOptions
  /** runs per case; overrides the file's `trials` */
  trials?: number
  /** per-case limit on target plus checks; overrides the file's `timeout_ms` @default 60_000 */
  timeoutMs?: number
  /** run the suite's tests concurrently (`describe.concurrent`) @default false */
  concurrent?: boolean
  /** `record` model calls to the suite's cassette, `replay` from it, or `auto`, as `evals run --record/--replay` */
  cassettes?: CassetteMode
  /** where `<suite>.snapshots.json` is, and whether to accept the outputs; `false` ignores snapshots @default { dir: 'baselines' } */
  snapshots?: SnapshotOptions | false
  /** regular expressions for secrets of your own, beside the file's `redact:` (as `--redact`) */
  redact?: readonly string[]
}

/** What `describeSuite` attaches to each test as `task.meta.evals`; vitest's JSON reporter keeps it. */
export interface EvalsTaskMeta {
  suite: string
  /** the variant the pair ran under, when the suite has variants */
  variant?: string
  caseId: string
  /** 0-based */
  trial: number
  status: CaseResult['status']
  /** weighted mean of the verdicts' scores; absent when the case errored */
  score?: number
  tags: string[]
  durationMs: number
  latencyMs?: number
  /** null when the model's price is unknown */
  costUsd?: number | null
  /** null when the target does not report usage */
  usage?: Usage | null
  verdicts: {
    evaluator: string
    pass: boolean
    score?: number
    skipped?: boolean
    reason: string
    /** an LLM judge's full reasoning */
    judgeReasons?: string
  }[]
  error?: string
}

declare module 'vitest' {
  interface TaskMeta {
    /** set by `describeSuite` from `agent-evals/vitest` */
    evals?: EvalsTaskMeta
  }
}

// vitest's own timeout stays above the case timeout, so the case reports `errored` with its own message
const TIMEOUT_MARGIN_MS = 5_000

/**
 * Turns a case file into a `describe` block named after the file (relative to the working directory) with one
 * test per case, per variant when the file has `variants:` (`case [variant]`), and per trial when a case has
 * several. The run is resolved and its pairs built as `evals run` resolves and builds them (`resolveRun`, the runner's
 * job builder), with services of its own: the file's `redact:` patterns, rate limits, cassettes and snapshots
 * apply, and two files in one worker never share them. A failing case fails its test with every check's reason.
 */
export function describeSuite(file: string, options: DescribeSuiteOptions = {}): void {
  const path = resolve(file)
  const label = relative(process.cwd(), path)
  const define = options.concurrent === true ? describe.concurrent : describe
  define(label, async () => {
    const suite = await loadSuite(path)
    const run = resolveRun([suite], {
      ...(options.model !== undefined && { model: options.model }),
      ...(options.models !== undefined && { models: options.models }),
      ...(options.judge && { judgeSettings: options.judge }),
      ...(options.trials !== undefined && { trials: options.trials }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.cassettes && { cassettes: options.cassettes }),
      ...(options.snapshots !== undefined && { snapshots: options.snapshots }),
      ...(options.redact && { redact: options.redact }),
      ...(options.target && { targets: new Map([[suite.file, asTarget(options.target)]]) }),
    })
    const services = await makeServices(run)
    const setup = await withKeylessModels(services.keyless, () => prepareRun(run, services))
    afterAll(async () => {
      for (const store of setup.snapshots ?? []) await store.save(services.redactor)
      await Promise.all([...new Set(setup.targets)].map(async (target) => target.close?.()))
      await closeServices(services)
      // vitest shows a test file's console output beside its tests
      const nothingRecorded = services.cassettes?.nothingRecorded(
        "`describeSuite(…, { cassettes: 'record' })`",
      )
      if (nothingRecorded !== undefined) console.warn(`Warning: ${nothingRecorded}`)
    })
    const pairs = inCaseOrder(run.suites, [...jobs(setup, run.suites)])
    for (const { job, skip, trials, suite: copy } of pairs) {
      if (skip) {
        test.skip(testName(skip.caseId, copy, 0, 1), () => undefined)
        continue
      }
      test(
        testName(job.caseId, copy, job.trial, trials),
        async ({ task, signal }) => {
          const raw = await withKeylessModels(services.keyless, () => runCase(job, signal))
          const result = await services.redactor.valueLoaded(raw)
          task.meta.evals = metaOf(result)
          assertPassed(result, services.redactor)
        },
        job.timeoutMs + TIMEOUT_MARGIN_MS,
      )
    }
  })
}

/** A built pair with its suite copy and its case's number of trials. */
type Pair = Job & { suite: Suite; trials: number }

/** The pairs case by case (each case's variants together, then its trials), as the file lists the cases. */
function inCaseOrder(suites: readonly Suite[], built: readonly Job[]): Pair[] {
  const firsts: number[] = []
  let first = 0
  for (const suite of suites) {
    firsts.push(first)
    first += suite.cases.length
  }
  const copyOf = (job: Job): number => {
    let index = 0
    while (index + 1 < firsts.length && job.caseIndex >= (firsts[index + 1] ?? Infinity)) index++
    return index
  }
  const trials = new Map<string, number>()
  const keyOf = (job: Job): string => `${String(copyOf(job))}:${String(job.at)}`
  for (const job of built) trials.set(keyOf(job), (trials.get(keyOf(job)) ?? 0) + 1)
  return built
    .map((job) => ({ ...job, suite: suites[copyOf(job)] as Suite, trials: trials.get(keyOf(job)) ?? 1 }))
    .sort((a, b) => a.at - b.at || copyOf(a) - copyOf(b) || (a.job?.trial ?? 0) - (b.job?.trial ?? 0))
}

/** `case`, `case [variant]`, `case [trial 1/3]` or `case [variant] [trial 1/3]`, as JUnit names them */
function testName(id: string, suite: Suite, trial: number, trials: number): string {
  const variant = suite.variant === undefined ? '' : ` [${suite.variant.name}]`
  return `${id}${variant}${trials === 1 ? '' : ` [trial ${trial + 1}/${trials}]`}`
}

function asTarget(target: SuiteTarget): Target {
  if (typeof target === 'function') {
    return wrapFunction(`function:${target.name || 'anonymous'}`, target, 'describeSuite target')
  }
  if (typeof (target as Partial<Target>).id === 'string') return target as Target
  const agent = target as RunnableAgent & { name?: unknown }
  const name = typeof agent.name === 'string' ? agent.name : 'agent'
  return wrapFunction(
    `agent:${name}`,
    (input, context) => agent.run(input, { signal: context.signal, trial: context.trial }),
    `describeSuite target \`${name}\``,
  )
}

function assertPassed(result: CaseResult, redactor: Redactor): void {
  if (result.status === 'passed') return
  const outcome = caseOutcome('describeSuite', result, redactor)
  if (result.status !== 'failed') return
  const message = formatOutcome(
    { ...outcome, title: `Case ${code(result.caseId)}${underVariant(result.variant)} failed` },
    result.transcript,
    redactor,
  )
  throw Object.assign(new Error(message), outcome.diff && redactedDiff(outcome.diff, redactor))
}

function underVariant(variant: string | undefined): string {
  return variant === undefined ? '' : ` under variant ${code(variant)}`
}

function metaOf(result: CaseResult): EvalsTaskMeta {
  const base = {
    suite: result.suite,
    ...(result.variant === undefined ? {} : { variant: result.variant }),
    caseId: result.caseId,
    trial: result.trial,
    status: result.status,
    tags: result.tags,
    durationMs: result.durationMs,
  }
  if (result.status === 'skipped') return { ...base, verdicts: [] }
  const transcript = result.transcript
  return {
    ...base,
    ...(result.status === 'errored' ? { error: result.error.message } : { score: result.score }),
    ...(transcript === undefined
      ? {}
      : { latencyMs: transcript.latencyMs, costUsd: transcript.costUsd, usage: transcript.usage }),
    verdicts: result.verdicts.map((verdict) => {
      const reasons = verdict.details?.reasons
      return {
        evaluator: verdict.evaluator,
        pass: verdict.pass,
        reason: verdict.reason,
        ...(verdict.score === undefined ? {} : { score: verdict.score }),
        ...(verdict.skipped === undefined ? {} : { skipped: verdict.skipped }),
        ...(typeof reasons === 'string' && verdict.details?.judge !== undefined
          ? { judgeReasons: reasons }
          : {}),
      }
    }),
  }
}
