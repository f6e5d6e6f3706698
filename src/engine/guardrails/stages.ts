import type { Ending } from '../endings.ts'
import type { LoopState } from '../loop-state.ts'
import { parseStructuredOutput } from '../structured.ts'
import type { ToolOutcome } from '../tool-scope.ts'
import type { GuardrailTrip } from './guardrail.ts'
import { screen } from './screen.ts'

/** Screens the run's new user messages before the first model call; a block ends the run. */
export async function screenInput(state: LoopState): Promise<Ending | undefined> {
  const guardrails = state.agent.guardrails?.input
  if (!guardrails?.length) return undefined
  for (let i = state.inputFrom; i < state.messages.length; i++) {
    const message = state.messages[i]
    if (message?.role !== 'user') continue
    const screened = await screen(state, 'input', guardrails, message.content)
    if (screened.trip) return blocked(screened.trip)
    if (screened.text !== message.content) state.messages[i] = { role: 'user', content: screened.text }
  }
  return undefined
}

/**
 * Screens each tool result before the model sees it: a rewrite replaces what the model is sent (and the recorded
 * result); a block keeps the result from the model, and ends the run once the step's results are in.
 */
export async function screenToolResults(
  state: LoopState,
  outcomes: readonly ToolOutcome[],
): Promise<Ending | undefined> {
  const guardrails = state.agent.guardrails?.toolResults
  if (!guardrails?.length) return undefined
  let trip: GuardrailTrip | undefined
  for (const outcome of outcomes) {
    const screened = await screen(state, 'tool_result', guardrails, outcome.content, outcome.record.name)
    if (screened.trip) {
      trip ??= screened.trip
      outcome.content = placeholder(screened.trip)
      outcome.record.result = outcome.content
    } else if (screened.text !== outcome.content) {
      outcome.content = screened.text
      if (outcome.ok) outcome.record.result = screened.text
      else outcome.record.error = screened.text
    }
  }
  return trip && blocked(trip)
}

/**
 * Screens the output a run ends with. A block empties the output (and the message that held it); a rewrite replaces
 * both, and with an `output` schema the rewritten text must still match it, or the run is blocked.
 */
export async function screenOutput(state: LoopState, ending: Ending): Promise<Ending> {
  const guardrails = state.agent.guardrails?.output
  if (!guardrails?.length || ending.output === '' || ending.stopReason === 'guardrail') return ending
  const screened = await screen(state, 'output', guardrails, ending.output)
  if (screened.trip) {
    replaceMessage(state, ending.output, placeholder(screened.trip))
    return blocked(screened.trip)
  }
  if (screened.text === ending.output) return ending
  replaceMessage(state, ending.output, screened.text)
  const rewritten: Ending = { ...ending, output: screened.text }
  if (!state.agent.output || ending.parsed === undefined) return rewritten
  const parsed = await parseStructuredOutput(screened.text, state.agent.output, state.agent.outputPlainText)
  if (parsed.ok) return { ...rewritten, parsed: parsed.value }
  const name = state.trace.findLast((step) => step.type === 'guardrail')
  const trip: GuardrailTrip = {
    stage: 'output',
    name: name?.type === 'guardrail' ? name.name : 'output',
    reason: 'the rewritten output no longer matches the output schema',
  }
  replaceMessage(state, screened.text, placeholder(trip))
  return blocked(trip)
}

function blocked(trip: GuardrailTrip): Ending {
  return { stopReason: 'guardrail', output: '', guardrail: trip }
}

function placeholder(trip: GuardrailTrip): string {
  return `[blocked by guardrail ${trip.name}: ${trip.reason}]`
}

/** Replaces the text in the last message that holds it: the final reply, or a terminal tool's result. */
function replaceMessage(state: LoopState, text: string, replacement: string): void {
  for (let i = state.messages.length - 1; i >= state.inputFrom; i--) {
    const message = state.messages[i]
    if (message === undefined || message.role === 'user' || message.role === 'system') continue
    if (message.content !== text) continue
    state.messages[i] = { ...message, content: replacement }
    return
  }
}
