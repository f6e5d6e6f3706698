import { toError } from '../errors.ts'
import type { Message, StopReason } from '../types.ts'
import type { PendingApproval } from './approvals/approval.ts'
import type { GuardrailTrip } from './guardrails/guardrail.ts'
import type { LoopState } from './loop-state.ts'
import type { LimitStop } from './usage-limits.ts'

/** How a run ended: its stop reason, final text, validated output and, when it failed, why. */
export interface Ending {
  stopReason: StopReason
  output: string
  parsed?: unknown
  error?: string
  /** the calls waiting for approval, when the run was interrupted */
  interruptions?: PendingApproval[]
  /** the guardrail that blocked the run */
  guardrail?: GuardrailTrip
}

export function abortedEnding(): Ending {
  return { stopReason: 'aborted', output: '', error: 'The run was aborted.' }
}

/** The ending of a run that threw: aborted when the run's signal was, else an error; traced either way. */
export function endingOfThrown(state: LoopState, thrown: unknown): Ending {
  const error = toError(thrown)
  const ending: Ending = state.signal.aborted
    ? { stopReason: 'aborted', output: '', error: `The run was aborted: ${error.message}` }
    : { stopReason: 'error', output: '', error: error.message }
  state.trace.push({
    type: 'error',
    startedAt: Date.now(),
    durationMs: 0,
    error: ending.error ?? error.message,
  })
  return ending
}

/** Ends the run at a usage limit or at `maxIterations`: closes the iteration, traces and observes the stop. */
export async function stopAtLimit(state: LoopState, stop: LimitStop, output: string): Promise<Ending> {
  await state.endIteration()
  state.trace.push({
    type: 'limit',
    startedAt: Date.now(),
    durationMs: 0,
    limit: stop.limit,
    reason: stop.reason,
  })
  await state.observe('onLimit', {
    runId: state.runId,
    agent: state.agent.name,
    limit: stop.limit,
    reason: stop.reason,
  })
  const stopReason = stop.limit === 'maxIterations' ? 'max_iterations' : 'usage_limit'
  return { stopReason, output, error: stop.reason }
}

/** The model was called `maxIterations` times and gave no final answer. */
export function stopAtMaxIterations(state: LoopState): Promise<Ending> {
  const { maxIterations } = state.agent
  return stopAtLimit(
    state,
    {
      limit: 'maxIterations',
      reason: `Stopped after ${maxIterations} model calls (maxIterations) without a final answer.`,
    },
    lastAssistantText(state.messages),
  )
}

/** The model's reply was cut off by its token limit or withheld by a content filter: the run ends without an answer. */
export async function cutOff(
  state: LoopState,
  step: { stopReason: 'truncated' | 'content_filter'; text: string },
): Promise<Ending> {
  await state.endIteration()
  state.messages.push({ role: 'assistant', content: step.text })
  const error =
    step.stopReason === 'truncated'
      ? `The reply was cut off at the model's token limit (finish reason \`length\`) after ${step.text.length} characters; raise \`maxTokens\` or ask for a shorter answer.`
      : "The provider's content filter stopped the reply (finish reason `content_filter`)."
  return { stopReason: step.stopReason, output: step.text, error }
}

export function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role === 'assistant' && message.content) return message.content
  }
  return ''
}
