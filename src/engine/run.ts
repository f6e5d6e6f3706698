import type { AgentInput, AgentResult, RunOptions } from './agent-run.ts'
import type { Ending } from './endings.ts'
import type { EmitEvent } from './event-channel.ts'
import { LoopState } from './loop-state.ts'
import { openLoop, runLoop } from './loop.ts'
import type { ResolvedAgent } from './resolved-agent.ts'

/**
 * Runs the agent loop to the end; failures of the model or tools end up in the result, never thrown. An
 * `instructions` function that throws is a bug in the agent's code: it rejects, as `agent.stream()` rethrows it.
 */
export async function executeRun(
  agent: ResolvedAgent,
  input: AgentInput,
  options: RunOptions,
  emit?: EmitEvent,
): Promise<AgentResult<unknown>> {
  const state = new LoopState(agent, input, options)
  const { runId } = state
  await state.observe('onRunStart', { runId, agent: agent.name, input })
  const ending = await runLoop(openLoop(state, options, emit))
  const result = resultOf(state, ending)
  await state.endIteration()
  await state.observe('onRunEnd', { runId, agent: agent.name, result })
  void emit?.({ type: 'result', result })
  return result
}

function resultOf(state: LoopState, ending: Ending): AgentResult<unknown> {
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
  }
  if (ending.error !== undefined) result.error = ending.error
  return result
}
