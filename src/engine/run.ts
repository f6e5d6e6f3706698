import type { AgentInput, AgentResult, RunOptions } from './agent-run.ts'
import { stampAgent } from './agents/handoff.ts'
import { runStateOf } from './approvals/run-state.ts'
import type { Ending } from './endings.ts'
import type { EmitEvent } from './event-channel.ts'
import { screenInput, screenOutput } from './guardrails/stages.ts'
import { LoopState, type AgentLoop } from './loop-state.ts'
import { openLoop, runLoop } from './loop.ts'
import type { ResolvedAgent } from './resolved-agent.ts'
import { holdSession, saveSession, type HeldSession } from './sessions/run-session.ts'

/**
 * Runs the agent loop to the end; failures of the model or tools end up in the result, never thrown. An
 * `instructions` function that throws is a bug in the agent's code: it rejects, as `agent.stream()` rethrows it. So
 * does misuse of sessions (`sessionId` without a store); a store that fails ends the run with `error`.
 */
export async function executeRun(
  agent: ResolvedAgent,
  input: AgentInput,
  options: RunOptions,
  emit?: EmitEvent,
): Promise<AgentResult<unknown>> {
  if (options.sessionId === undefined) {
    const state = new LoopState(agent, input, options)
    return driveRun(state, { options, emit, input }, agent.guardrails?.input && (() => screenInput(state)))
  }
  const session = await holdSession(agent, options.sessionId, options)
  try {
    const state = new LoopState(agent, input, { ...options, history: session?.history ?? [] })
    if (session?.summary !== undefined) state.memory = { start: 0, summary: session.summary }
    return await driveRun(
      state,
      { options, emit, input, session },
      agent.guardrails?.input && (() => screenInput(state)),
    )
  } finally {
    await session?.release()
  }
}

/** What a run is driven with besides its state. */
export interface RunDrive {
  options: RunOptions
  emit: EmitEvent | undefined
  /** what `onRunStart` reports as the input */
  input: unknown
  session?: HeldSession | undefined
}

/** Drives a run from its state to its result: the loop, the output guardrails, the session, the observers. */
export async function driveRun(
  state: LoopState,
  drive: RunDrive,
  first?: (loop: AgentLoop) => Promise<Ending | undefined>,
): Promise<AgentResult<unknown>> {
  const { runId } = state
  const agent = state.agent.name
  try {
    await state.observe('onRunStart', { runId, agent, input: drive.input })
    const loop = openLoop(state, drive.options, drive.emit)
    let ending = await runLoop(loop, first && (() => first(loop)))
    if (state.agent.guardrails?.output) ending = await screenOutput(state, ending)
    stampAgent(state)
    const saveError = drive.session ? await saveSession(drive.session, state, ending) : undefined
    const result = resultOf(state, ending, drive)
    if (saveError !== undefined) result.error = saveError
    await state.endIteration()
    await state.observe('onRunEnd', { runId, agent, result })
    void drive.emit?.({ type: 'result', result })
    return result
  } finally {
    state.close()
  }
}

function resultOf(state: LoopState, ending: Ending, drive: RunDrive): AgentResult<unknown> {
  const { runId, toolCalls, messages, trace, usage, requests, costUsd, iterations, reasoning } = state
  const result: AgentResult<unknown> = {
    runId,
    output: ending.output,
    parsed: ending.parsed,
    toolCalls,
    messages,
    trace,
    usage,
    requests,
    costUsd: requests === 0 ? null : costUsd,
    iterations,
    stopReason: ending.stopReason,
    reasoning,
    providerUsed: state.providerUsed,
    durationMs: performance.now() - state.startedAt,
    source: 'engine',
    lastAgent: state.agent.name,
  }
  if (ending.error !== undefined) result.error = ending.error
  if (ending.guardrail) result.guardrail = ending.guardrail
  if (state.usageByAgent) result.usageByAgent = Object.fromEntries(state.usageByAgent)
  if (ending.interruptions) {
    result.interruptions = ending.interruptions
    result.state = runStateOf(
      state,
      ending.interruptions,
      drive.session?.id ?? drive.options.sessionId,
      result,
    )
  }
  return result
}
