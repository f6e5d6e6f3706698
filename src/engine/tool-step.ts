import type { ToolCallRequest } from '../types.ts'
import { takeHandoff } from './agents/handoff.ts'
import { interruptForApproval, pendingApprovals } from './approvals/pending.ts'
import { abortedEnding, stopAtLimit, type Ending } from './endings.ts'
import { screenToolResults } from './guardrails/stages.ts'
import type { AgentLoop, LoopState } from './loop-state.ts'
import { assistantMessage, type Step } from './steps.ts'
import { acceptTerminalResult } from './final-answer.ts'
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
  state.messages.push(assistantMessage(step))
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
  let terminal: ToolOutcome | undefined
  for (const outcome of outcomes) {
    appendResult(state, outcome)
    if (!outcome.ok) state.toolErrors++
    else if (endsRun(state, outcome)) terminal ??= outcome
  }
  const exhausted = noteStreaks(state, outcomes)
  if (blocked) return blocked
  if (state.agent.handoffs.size > 0) await takeHandoff(loop, outcomes)
  if (terminal) return acceptTerminalResult(state, terminal.record.name, terminal.record.result)
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

/** Whether a successful call ends the run: a terminal tool, or `stopWhen`. */
function endsRun(state: LoopState, { record, tool }: ToolOutcome): boolean {
  return tool?.terminal === true || state.agent.stopWhen?.(record, record.result) === true
}

/**
 * Counts the failure streak of each tool called in this reply: one success resets it, a reply whose calls of the
 * tool all failed adds one (the calls of one reply are not "in a row"). Returns why the run stops when a tool has
 * failed more times in a row than its retry budget allows.
 */
function noteStreaks(state: LoopState, outcomes: readonly ToolOutcome[]): string | undefined {
  const lastFailure = new Map<string, ToolOutcome>()
  const succeeded = new Set<string>()
  for (const outcome of outcomes) {
    if (!outcome.tool) continue
    if (outcome.ok) succeeded.add(outcome.record.name)
    else lastFailure.set(outcome.record.name, outcome)
  }
  let exhausted: string | undefined
  for (const name of succeeded) state.failureStreaks.set(name, 0)
  for (const [name, { record, tool }] of lastFailure) {
    if (succeeded.has(name)) continue
    const streak = (state.failureStreaks.get(name) ?? 0) + 1
    state.failureStreaks.set(name, streak)
    const budget = tool?.maxRetries ?? state.agent.toolRetries
    if (streak > budget) {
      exhausted ??= `Tool \`${name}\` failed ${streak} times in a row (retry budget ${budget}); last error: ${record.error ?? ''}`
    }
  }
  return exhausted
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
