import { stopAtLimit, type Ending } from './endings.ts'
import { checkFinalOutput, checkTerminalResult, type FinalCheck } from './final-output.ts'
import type { LoopState } from './loop-state.ts'
import { assistantMessage, type Step } from './steps.ts'
import { toolResultText } from './tool-call.ts'
import type { LimitStop } from './usage-limits.ts'

/**
 * A reply without tool calls: the run's answer once the output schema and validators accept it. When they ask for
 * another try, sends their feedback to the model and returns undefined (another turn), up to `outputRetries` times.
 */
export async function acceptFinalText(
  state: LoopState,
  step: Extract<Step, { kind: 'final' }>,
  overLimit: LimitStop | undefined,
): Promise<Ending | undefined> {
  const { agent } = state
  const { text } = step
  state.messages.push(assistantMessage(step))
  if (overLimit) return stopAtLimit(state, overLimit, text)
  if (!agent.output && agent.outputValidators.length === 0) return { stopReason: 'final', output: text }
  const checked = await checkFinalOutput(
    text,
    { schema: agent.output, plainText: agent.outputPlainText },
    agent.outputValidators,
    state.context(),
  )
  return afterCheck(state, checked, { stopReason: 'final', output: text })
}

/**
 * A successful call of a terminal tool: the run's answer once the output schema and validators accept its result;
 * when they ask for another try, the model gets their feedback and another turn, as for a final reply.
 */
export async function acceptTerminalResult(
  state: LoopState,
  tool: string,
  result: unknown,
): Promise<Ending | undefined> {
  const { agent } = state
  const output = toolResultText(result)
  if (!agent.output && agent.outputValidators.length === 0) return { stopReason: 'terminal_tool', output }
  const checked = await checkTerminalResult(
    tool,
    result,
    { schema: agent.output, plainText: agent.outputPlainText },
    agent.outputValidators,
    state.context(),
  )
  return afterCheck(state, checked, { stopReason: 'terminal_tool', output })
}

/** Ends the run as `accepted` says, with an error, or sends the feedback for another try (undefined). */
function afterCheck(state: LoopState, checked: FinalCheck, accepted: Ending): Ending | undefined {
  const { agent } = state
  const text = accepted.output
  if (checked.kind === 'accept') return { ...accepted, parsed: checked.parsed }
  if (checked.kind === 'fail') return { stopReason: 'error', output: text, error: checked.error }
  if (state.outputRetries >= agent.outputRetries) {
    const what = agent.output ? 'Structured output' : 'Output validation'
    const error = `${what} failed after ${state.outputRetries} retries: ${checked.feedback}`
    return { stopReason: 'invalid_output', output: text, error }
  }
  state.outputRetries++
  state.trace.push({
    type: 'structured_retry',
    startedAt: Date.now(),
    durationMs: 0,
    attempt: state.outputRetries,
    error: checked.feedback,
  })
  state.messages.push({ role: 'user', content: checked.feedback })
  return undefined
}
