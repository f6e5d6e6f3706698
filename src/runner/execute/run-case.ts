import { runInCallScope, type CallRecorder } from '../../engine/call-scope.ts'
import type { RateLimiters } from '../../engine/rate-limit.ts'
import { EvalsError, TimeoutError, toError } from '../../errors.ts'
import type { Evaluator, EvaluatorContext, Verdict } from '../../evaluators/evaluator.ts'
import { agentStopVerdict } from '../../evaluators/stop-reason.ts'
import type { ScriptedApproval, Target, TargetContext } from '../../targets/target.ts'
import type { Transcript, Turn } from '../../types.ts'
import { CaseTimeouts, type Stoppable } from './case-timeouts.ts'
import { converse, type Conversation } from './conversation.ts'
import type {
  CaseResult,
  ConversationTurn,
  NamedVerdict,
  SerializedError,
  SnapshotOutcome,
} from '../../model/case-result.ts'
import type { SuiteSnapshots } from '../results/snapshots.ts'
import type { HttpLayer } from '../../replay/http/http-layer.ts'
import type { PoolSlot } from './pool.ts'

/** One (case, trial) pair, ready to run. */
export interface CaseJob {
  suite: string
  /** the variant the pair runs under, when the suite has variants */
  variant?: string | undefined
  caseId: string
  trial: number
  tags: string[]
  weight: number
  /** the case's `expect_fail:`, carried into its results */
  expectFail?: true | string | undefined
  input: string | Turn[]
  vars: Record<string, unknown>
  target: Target
  model?: string | undefined
  /** an error when the case's evaluators could not be built */
  evaluators: Evaluator[] | Error
  /** the case's conversation (`turns:`, `simulated_user:`); the target then runs once per user message */
  conversation?: Conversation | undefined
  /** the suite's snapshots, for a case compared with its snapshot; `strict` fails the case when it changed */
  snapshot?: { store: SuiteSnapshots; strict: boolean } | undefined
  timeoutMs: number
  /** the suite's cassette (`--record`, `--replay`): every model call of the pair goes through it */
  recorder?: CallRecorder | undefined
  /** per-provider adaptive concurrency shared by the run */
  limiters?: RateLimiters | undefined
  /** the run's HTTP layer: a replay miss under another SDK errors the pair, whatever the agent made of it */
  http?: Pick<HttpLayer, 'takeMiss' | 'ready'> | undefined
  /** the case's scripted approvals, for the target */
  approvals?: readonly ScriptedApproval[] | undefined
}

/**
 * Runs the target, then every evaluator, under the case timeout. Resolves to a CaseResult whatever happens, except
 * when `interrupt` aborts: then it rejects with the interrupt's reason, as the pair did not finish. Once the target
 * is done, a check that waits for a batch shared with other pairs releases the pair's `slot` in the run's pool.
 */
export async function runCase(job: CaseJob, interrupt: AbortSignal, slot?: PoolSlot): Promise<CaseResult> {
  const pair = new PairRun(job, interrupt)
  try {
    if (job.http) await job.http.ready()
    return await pair.settled(runInCallScope(callScopeOf(job), () => grade(job, pair, slot)))
  } catch (error) {
    if (interrupt.aborted) throw toError(interrupt.reason)
    return {
      ...baseOf(job),
      status: 'errored',
      error: serializeError(job.http?.takeMiss(job) ?? error),
      verdicts: pair.verdicts,
      durationMs: performance.now() - pair.started,
      ...(pair.transcript ? { transcript: pair.transcript } : {}),
      ...(job.conversation ? { turns: pair.turns } : {}),
    }
  } finally {
    pair.end()
  }
}

async function grade(job: CaseJob, pair: PairRun, slot: PoolSlot | undefined): Promise<CaseResult> {
  if (job.evaluators instanceof Error) throw job.evaluators
  const context = pair.context()
  /**
   * `slot`: given once the target is done for good (not between a conversation's turns). It is lent while a check
   * waits for its batch, unless a model-calling check comes after: model calls never run without a slot.
   */
  const check = async (
    transcript: Transcript,
    evaluators: readonly Evaluator[],
    turn?: number,
    slot?: PoolSlot,
  ) => {
    const lastModelCall = evaluators.findLastIndex((evaluator) => evaluator.usesModel === true)
    for (let at = 0; at < evaluators.length; at++) {
      const evaluator = evaluators[at] as Evaluator
      const outcome = evaluator.evaluate(transcript, context)
      if (slot && evaluator.waitsForBatch === true && at > lastModelCall) slot.release()
      // most checks are synchronous: awaiting them anyway costs a microtask each
      pair.verdicts.push(named(isPromiseLike(outcome) ? await outcome : outcome, evaluator, turn))
    }
  }
  let evaluators = job.evaluators
  let transcript: Transcript
  if (job.conversation) {
    const outcome = await converse(job.conversation, job, context, check, pair.turns)
    transcript = outcome.transcript
    evaluators = [...outcome.evaluators, ...evaluators]
  } else transcript = await job.target.run(job.input, context)
  const miss = job.http?.takeMiss(job)
  if (miss) throw miss
  pair.transcript = transcript
  if (transcript.error !== undefined) throw new Error(transcript.error)
  await check(transcript, evaluators, undefined, slot)
  // the agent's own stop (out of iterations, a truncated reply…) fails the case, unless a check grades the stop
  const stop = evaluators.some((evaluator) => evaluator.gradesStop) ? undefined : agentStopVerdict(transcript)
  if (stop) pair.verdicts.push(named(stop, { name: 'stop_reason' }))
  const snapshot = job.snapshot?.store.check(job.caseId, job.trial, transcript, pair.turns)
  if (job.snapshot?.strict === true && snapshot?.status === 'changed')
    pair.verdicts.push(snapshotVerdict(snapshot))
  const durationMs = performance.now() - pair.started
  // a skipped verdict (a judge with no model) neither passes nor fails the case
  const graded = pair.verdicts.filter((verdict) => verdict.skipped !== true)
  if (graded.length === 0 && pair.verdicts.length > 0) {
    const reason = pair.verdicts[0]?.reason ?? 'every check was skipped'
    return { ...baseOf(job), status: 'skipped', reason, durationMs }
  }
  const passed = graded.every((verdict) => verdict.pass)
  // keys in canonical order, so results.jsonl writes the row as it is, without sorting a copy; set one by one, as
  // conditional spreads cost a runtime call each on this once-per-pair path
  const result: Partial<Graded> = { caseId: job.caseId, durationMs }
  if (job.expectFail !== undefined) result.expectFail = job.expectFail
  if (passed && graded.length < pair.verdicts.length) result.partial = true
  result.score = scoreOf(graded)
  if (snapshot) result.snapshot = snapshot
  result.status = passed ? 'passed' : 'failed'
  result.suite = job.suite
  result.tags = job.tags
  result.transcript = transcript
  result.trial = job.trial
  if (job.conversation) result.turns = pair.turns
  if (job.variant !== undefined) result.variant = job.variant
  result.verdicts = pair.verdicts
  result.weight = job.weight
  return result as Graded
}

type Graded = Extract<CaseResult, { status: 'passed' | 'failed' }>

/** The verdict with its evaluator's name and weight, its keys in canonical order for the same reason. */
function named(verdict: Verdict, evaluator: Pick<Evaluator, 'name' | 'weight'>, turn?: number): NamedVerdict {
  const { pass, score, reason, skipped, details } = verdict
  const out = (details === undefined ? {} : { details }) as NamedVerdict
  out.evaluator = evaluator.name
  out.pass = pass
  out.reason = reason
  if (score !== undefined) out.score = score
  if (skipped !== undefined) out.skipped = skipped
  if (turn !== undefined) out.turn = turn
  out.weight = evaluator.weight ?? 1
  return out
}

/** The failing check of a `snapshot: strict` case whose output moved. */
function snapshotVerdict(outcome: SnapshotOutcome): NamedVerdict {
  return {
    details: { diff: outcome.diff },
    evaluator: 'snapshot',
    pass: false,
    reason: `the output changed from its snapshot in ${outcome.file}; accept it with --update-snapshots`,
    weight: 1,
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<T>> | null)?.then === 'function'
}

function baseOf(
  job: CaseJob,
): Pick<CaseResult, 'suite' | 'variant' | 'caseId' | 'trial' | 'tags' | 'weight' | 'expectFail'> {
  return {
    suite: job.suite,
    caseId: job.caseId,
    trial: job.trial,
    tags: job.tags,
    weight: job.weight,
    ...(job.variant !== undefined && { variant: job.variant }),
    ...(job.expectFail !== undefined && { expectFail: job.expectFail }),
  }
}

/** One pair in flight: its clock, timeout and abort signal (made on first use: most targets never read it). */
class PairRun implements Stoppable {
  readonly started = performance.now()
  readonly deadline: number
  readonly verdicts: NamedVerdict[] = []
  transcript: Transcript | undefined
  /** a conversation's finished turns */
  readonly turns: ConversationTurn[] = []
  readonly #job: CaseJob
  readonly #timeouts: CaseTimeouts
  #controller: AbortController | undefined
  #stop: ((error: Error) => void) | undefined
  #stopped: Error | undefined

  constructor(job: CaseJob, interrupt: AbortSignal) {
    this.#job = job
    this.deadline = this.started + job.timeoutMs
    this.#timeouts = CaseTimeouts.of(interrupt)
    this.#timeouts.add(this)
  }

  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal
  }

  /** `work`'s outcome, or the timeout's or interrupt's error if that comes first. */
  settled<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#stopped) reject(this.#stopped)
      this.#stop = reject
      work.then(resolve, reject)
    })
  }

  /** What the target and the evaluators are given: one object, its signal made when first read. */
  context(): PairContext {
    return new PairContext(this, this.#job)
  }

  end(): void {
    this.#timeouts.delete(this)
  }

  expire(): void {
    const { caseId, timeoutMs } = this.#job
    this.interrupt(
      new TimeoutError(
        `case \`${caseId}\` took longer than ${timeoutMs}ms; raise \`timeout_ms\` in the case file or --timeout`,
        timeoutMs,
      ),
    )
  }

  interrupt(reason: unknown): void {
    ;(this.#controller ??= new AbortController()).abort(reason)
    this.#stopped ??= toError(reason)
    this.#stop?.(this.#stopped)
  }
}

class PairContext implements TargetContext, EvaluatorContext {
  readonly caseId: string
  readonly trial: number
  readonly vars: Record<string, unknown>
  declare readonly model?: string
  declare readonly approvals?: readonly ScriptedApproval[]
  readonly #pair: PairRun

  constructor(pair: PairRun, job: CaseJob) {
    this.#pair = pair
    this.caseId = job.caseId
    this.trial = job.trial
    this.vars = job.vars
    if (job.model !== undefined) (this as { model?: string }).model = job.model
    if (job.approvals !== undefined)
      (this as { approvals?: readonly ScriptedApproval[] }).approvals = job.approvals
  }

  get signal(): AbortSignal {
    return this.#pair.signal
  }

  get deadline(): number {
    return this.#pair.deadline
  }
}

/** The call scope of one pair: model calls of its target and judges find the cassette and limiter here. */
function callScopeOf(job: CaseJob): Parameters<typeof runInCallScope>[0] {
  return {
    suite: job.suite,
    caseId: job.caseId,
    trial: job.trial,
    ...(job.recorder === undefined ? {} : { recorder: job.recorder }),
    ...(job.limiters === undefined ? {} : { limiters: job.limiters }),
  }
}

function scoreOf(verdicts: readonly NamedVerdict[]): number {
  let total = 0
  let weights = 0
  for (const verdict of verdicts) {
    total += verdict.weight * (verdict.score ?? (verdict.pass ? 1 : 0))
    weights += verdict.weight
  }
  return weights === 0 ? 1 : total / weights
}

/** Plain data for results files; stacks only for errors that are not ours. */
export function serializeError(value: unknown): SerializedError {
  const error = toError(value)
  if (error instanceof EvalsError) return { name: error.name, code: error.code, message: error.message }
  return {
    name: error.name,
    message: error.message,
    ...(error.stack === undefined ? {} : { stack: error.stack }),
  }
}
