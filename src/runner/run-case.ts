import { runInCallScope, type CallRecorder } from '../engine/call-scope.ts'
import type { RateLimiters } from '../engine/rate-limit.ts'
import { EvalsError, TimeoutError, toError } from '../errors.ts'
import type { Evaluator, EvaluatorContext } from '../evaluators/evaluator.ts'
import type { Target } from '../targets/target.ts'
import type { Transcript, Turn } from '../types.ts'
import type { CaseResult, NamedVerdict, SerializedError } from './result.ts'

/** One (case, trial) pair, ready to run. */
export interface CaseJob {
  suite: string
  caseId: string
  trial: number
  tags: string[]
  weight: number
  input: string | Turn[]
  vars: Record<string, unknown>
  target: Target
  model?: string
  /** an error when the case's evaluators could not be built */
  evaluators: Evaluator[] | Error
  timeoutMs: number
  /** the suite's cassette (`--record`, `--replay`): every model call of the pair goes through it */
  recorder?: CallRecorder
  /** per-provider adaptive concurrency shared by the run */
  limiters?: RateLimiters
}

/**
 * Runs the target, then every evaluator, under the case timeout. Resolves to a CaseResult whatever happens, except
 * when `interrupt` aborts: then it rejects with the interrupt's reason, as the pair did not finish.
 */
export async function runCase(job: CaseJob, interrupt: AbortSignal): Promise<CaseResult> {
  const started = performance.now()
  const base = { suite: job.suite, caseId: job.caseId, trial: job.trial, tags: job.tags, weight: job.weight }
  // the signal is made on first use: most function targets never read it
  let controller: AbortController | undefined
  const signal = (): AbortSignal => (controller ??= new AbortController()).signal
  let stop: (reason: unknown) => void = () => undefined
  const stopped = new Promise<never>((_, reject) => {
    stop = reject
  })
  const abort = (reason: unknown): void => {
    ;(controller ??= new AbortController()).abort(reason)
    stop(toError(reason))
  }
  const timer = setTimeout(() => {
    abort(
      new TimeoutError(
        `case \`${job.caseId}\` took longer than ${job.timeoutMs}ms; raise \`timeout\` or --timeout`,
        job.timeoutMs,
      ),
    )
  }, job.timeoutMs)
  const onInterrupt = (): void => {
    abort(interrupt.reason)
  }
  interrupt.addEventListener('abort', onInterrupt, { once: true })
  let transcript: Transcript | undefined
  const verdicts: NamedVerdict[] = []
  try {
    const work = runInCallScope(callScopeOf(job), async (): Promise<CaseResult> => {
      if (job.evaluators instanceof Error) throw job.evaluators
      transcript = await job.target.run(job.input, {
        get signal() {
          return signal()
        },
        caseId: job.caseId,
        trial: job.trial,
        vars: job.vars,
        ...(job.model === undefined ? {} : { model: job.model }),
      })
      if (transcript.error !== undefined) throw new Error(transcript.error)
      const context: EvaluatorContext = {
        caseId: job.caseId,
        trial: job.trial,
        get signal() {
          return signal()
        },
        vars: job.vars,
      }
      for (const evaluator of job.evaluators) {
        const verdict = await evaluator.evaluate(transcript, context)
        verdicts.push({ ...verdict, evaluator: evaluator.name, weight: evaluator.weight ?? 1 })
      }
      const durationMs = performance.now() - started
      // a skipped verdict (a judge with no model) neither passes nor fails the case
      const graded = verdicts.filter((verdict) => verdict.skipped !== true)
      if (graded.length === 0 && verdicts.length > 0) {
        const reason = verdicts[0]?.reason ?? 'every check was skipped'
        return { ...base, status: 'skipped', reason, durationMs }
      }
      const pass = graded.every((verdict) => verdict.pass)
      return {
        ...base,
        status: pass ? 'passed' : 'failed',
        score: scoreOf(graded),
        verdicts,
        transcript,
        durationMs,
      }
    })
    work.catch(() => undefined)
    return await Promise.race([work, stopped])
  } catch (error) {
    if (interrupt.aborted) throw toError(interrupt.reason)
    const durationMs = performance.now() - started
    return {
      ...base,
      status: 'errored',
      error: serializeError(error),
      verdicts,
      durationMs,
      ...(transcript ? { transcript } : {}),
    }
  } finally {
    clearTimeout(timer)
    interrupt.removeEventListener('abort', onInterrupt)
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
