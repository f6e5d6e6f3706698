import type { ToolCallRequest } from '../types.ts'
import { takeHandoff } from './agents/handoff.ts'
import { interruptForApproval, pendingApprovals } from './approvals/pending.ts'
import { abortedEnding, stopAtLimit, type Ending } from './endings.ts'
import { screenToolResults } from './guardrails/stages.ts'
import type { AgentLoop, LoopState } from './loop-state.ts'
import type { Step } from './steps.ts'
import { toolResultText } from './tool-call.ts'
import { runToolCalls } from './tool-runner.ts'
import type { ToolOutcome } from './tool-scope.ts'
import type { LimitStop } from './usage-limits.ts'

/**
 * A reply with tool calls: runs them and appends their results to the conversation. Returns how the run ends (a
 * terminal tool, an abort, a tool out of retries, too many failed calls), or undefined to take another turn.
 */
export async function runToolStep(
  loop: AgentLoop,
  step: Extract<Step, { kind: 'tool-calls' }>,
  overLimit: LimitStop | undefined,
): Promise<Ending | undefined> {
  const { state } = loop
  state.messages.push({ role: 'assistant', content: step.text, toolCalls: step.calls })
  if (step.text) state.reasoning.push(step.text)
  if (overLimit) return stopAtLimit(state, overLimit, step.text)
  return runStepCalls(loop, step.calls)
}

/**
 * Runs the calls of the reply that ends the conversation so far, and appends their results; also where a resumed run
 * picks up the calls that waited for approval.
 */
export async function runStepCalls(loop: AgentLoop, calls: ToolCallRequest[]): Promise<Ending | undefined> {
  const { state } = loop
  const pending = state.agent.mayReview ? await pendingApprovals(calls, loop.toolScope) : []
  if (pending.length > 0) return interruptForApproval(state, pending)
  const outcomes = await runToolCalls(calls, loop.toolScope)
  const blocked = state.agent.guardrails ? await screenToolResults(state, outcomes) : undefined
  let terminalOutput: string | undefined
  let exhausted: string | undefined
  for (const outcome of outcomes) {
    appendResult(state, outcome)
    if (outcome.ok) {
      if (noteSuccess(state, outcome)) terminalOutput ??= toolResultText(outcome.record.result)
      continue
    }
    const outOfRetries = noteFailure(state, outcome)
    exhausted ??= outOfRetries
  }
  if (blocked) return blocked
  if (state.agent.handoffs.size > 0) await takeHandoff(loop, outcomes)
  if (terminalOutput !== undefined) return { stopReason: 'terminal_tool', output: terminalOutput }
  return endingAfterFailures(state, exhausted)
}

function appendResult(state: LoopState, { record, content, ok }: ToolOutcome): void {
  state.toolCalls.push(record)
  state.messages.push({
    role: 'tool',
    toolCallId: record.id,
    name: record.name,
    content,
    ...(ok ? {} : { isError: true }),
  })
}

/** Resets the tool's failure streak; says whether this call ends the run (a terminal tool, or `stopWhen`). */
function noteSuccess(state: LoopState, { record, tool }: ToolOutcome): boolean {
  state.failureStreaks.set(record.name, 0)
  return tool?.terminal === true || state.agent.stopWhen?.(record, record.result) === true
}

/** Counts a failed call; returns why the run stops when its tool has failed more times in a row than it may. */
function noteFailure(state: LoopState, { record, tool }: ToolOutcome): string | undefined {
  state.toolErrors++
  const streak = (state.failureStreaks.get(record.name) ?? 0) + 1
  state.failureStreaks.set(record.name, streak)
  const budget = tool?.maxRetries ?? state.agent.toolRetries
  if (!tool || streak <= budget) return undefined
  return `Tool \`${record.name}\` failed ${streak} times in a row (retry budget ${budget}); last error: ${record.error ?? ''}`
}

function endingAfterFailures(state: LoopState, exhausted: string | undefined): Ending | undefined {
  // the flag is read afresh: it can change while the tools run
  if (state.signal.aborted) return abortedEnding()
  if (exhausted) return { stopReason: 'tool_failures', output: '', error: exhausted }
  const { maxToolErrors } = state.agent
  if (state.toolErrors <= maxToolErrors) return undefined
  const error = `${state.toolErrors} tool calls failed in this run (maxToolErrors ${maxToolErrors}).`
  return { stopReason: 'tool_failures', output: '', error }
}
