import { stopAtLimit, type Ending } from './endings.ts'
import { checkFinalOutput } from './final-output.ts'
import type { LoopState } from './loop-state.ts'
import type { LimitStop } from './usage-limits.ts'

/**
 * A reply without tool calls: the run's answer once the output schema and validators accept it. When they ask for
 * another try, sends their feedback to the model and returns undefined (another turn), up to `outputRetries` times.
 */
export async function acceptFinalText(
  state: LoopState,
  text: string,
  overLimit: LimitStop | undefined,
): Promise<Ending | undefined> {
  const { agent } = state
  state.messages.push({ role: 'assistant', content: text })
  if (overLimit) return stopAtLimit(state, overLimit, text)
  if (!agent.output && agent.outputValidators.length === 0) return { stopReason: 'final', output: text }
  const checked = await checkFinalOutput(
    text,
    { schema: agent.output, plainText: agent.outputPlainText },
    agent.outputValidators,
    state.context(),
  )
  if (checked.kind === 'accept') return { stopReason: 'final', output: text, parsed: checked.parsed }
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
