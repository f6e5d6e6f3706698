import { dirname, relative, resolve } from 'node:path'
import { afterAll, describe, test } from 'vitest'
import { loadSuite } from '../cases/load.ts'
import type { Suite } from '../cases/suite.ts'
import type { CaseDefinition } from '../cases/case-definition.ts'
import { code } from '../evaluators/describe.ts'
import { compileEvaluators } from '../cases/compile-evaluators.ts'
import type { JudgeOptions } from '../evaluators/index.ts'
import { compileCase } from '../runner/conversation.ts'
import { planSuite } from '../runner/plan-suite.ts'
import { expandVariants, withVariantVars } from '../runner/variants.ts'
import type { CaseResult } from '../model/case-result.ts'
import { runCase, type CaseJob } from '../runner/run-case.ts'
import type { RunnableAgent } from '../targets/agent.ts'
import { wrapFunction, type TargetFunction } from '../targets/function.ts'
import { createTarget } from '../targets/index.ts'
import type { Target } from '../targets/target.ts'
import type { Usage } from '../types.ts'
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
  /** per-case limit on target plus checks; overrides the file's `timeout` @default 60_000 */
  timeoutMs?: number
  /** run the suite's tests concurrently (`describe.concurrent`) @default false */
  concurrent?: boolean
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
 * several. Each pair runs and is graded by the runner's `runCase`, with the variant's model, target, vars and judge
 * applied as `evals run` applies them, so results are those of `evals run`; a failing case fails its test with
 * every check's reason.
 */
export function describeSuite(file: string, options: DescribeSuiteOptions = {}): void {
  const path = resolve(file)
  const label = relative(process.cwd(), path)
  const define = options.concurrent === true ? describe.concurrent : describe
  define(label, async () => {
    const copies = expandVariants(await loadSuite(path), options.models)
    const given = options.target === undefined ? undefined : asTarget(options.target)
    const runs = await Promise.all(
      copies.map(async (suite) => {
        const model = options.model ?? suite.model
        const target =
          given ??
          (await createTarget(suite.target, {
            label: `${label}: ${suite.variant ? `variant \`${suite.variant.name}\`` : 'target'}`,
            ...(model === undefined ? {} : { model }),
          }))
        return { suite, model, target }
      }),
    )
    afterAll(async () => {
      await Promise.all([...new Set(runs.map((run) => run.target))].map(async (target) => target.close?.()))
    })
    const [first] = copies
    if (first === undefined) return
    for (const { at, id, skip, trials, timeoutMs } of planSuite(first, options)) {
      if (skip !== undefined) {
        for (const { suite } of runs) test.skip(testName(id, suite, 0, 1), () => undefined)
        continue
      }
      const built = first.cases.get(at)
      for (const { suite, model, target } of runs) {
        const caseDef = withVariantVars(built, suite.variant)
        const { evaluators, conversation } = compile(suite, caseDef, options.judge)
        for (let trial = 0; trial < trials; trial++) {
          const job: CaseJob = {
            suite: suite.name,
            variant: suite.variant?.name,
            caseId: caseDef.id,
            trial,
            tags: caseDef.tags,
            weight: caseDef.weight,
            input: caseDef.input,
            vars: caseDef.vars,
            target,
            evaluators,
            conversation,
            timeoutMs,
            ...(model === undefined ? {} : { model }),
          }
          test(
            testName(caseDef.id, suite, trial, trials),
            async ({ task, signal }) => {
              const result = await runCase(job, signal)
              task.meta.evals = metaOf(result)
              assertPassed(result)
            },
            timeoutMs + TIMEOUT_MARGIN_MS,
          )
        }
      }
    }
  })
}

/** `case`, `case [variant]`, `case [trial 1/3]` or `case [variant] [trial 1/3]`, as JUnit names them */
function testName(id: string, suite: Suite, trial: number, trials: number): string {
  const variant = suite.variant === undefined ? '' : ` [${suite.variant.name}]`
  return `${id}${variant}${trials === 1 ? '' : ` [trial ${trial + 1}/${trials}]`}`
}

function compile(
  suite: Suite,
  caseDef: CaseDefinition,
  judge: JudgeOptions | undefined,
): Pick<CaseJob, 'evaluators' | 'conversation'> {
  const context = { baseDir: dirname(suite.file), judge: { ...suite.judge, suite: suite.name, ...judge } }
  return compileCase(caseDef, compileEvaluators, context)
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

function assertPassed(result: CaseResult): void {
  if (result.status === 'passed') return
  const outcome = caseOutcome('describeSuite', result)
  if (result.status !== 'failed') return
  const message = formatOutcome(
    { ...outcome, title: `Case ${code(result.caseId)}${underVariant(result.variant)} failed` },
    result.transcript,
  )
  throw Object.assign(new Error(message), outcome.diff && redactedDiff(outcome.diff))
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
