import { ConfigError } from '../../errors.ts'
import type { AgentResult, RunOptions } from '../agent-run.ts'
import { findTeamMember } from '../agents/handoff.ts'
import { LoopState } from '../loop-state.ts'
import type { ResolvedAgent } from '../resolved-agent.ts'
import type { ApprovalDecision, PendingApproval, RunState } from './approval.ts'

/** The interrupted run as JSON data, copied so that later changes to the result do not change it. */
export function runStateOf(
  state: LoopState,
  pending: PendingApproval[],
  sessionId: string | undefined,
  result: AgentResult<unknown>,
): RunState {
  const saved: RunState = {
    version: 1,
    runId: state.runId,
    agent: state.rootAgent,
    currentAgent: state.agent.name,
    pending,
    messages: state.messages,
    toolCalls: state.toolCalls,
    trace: state.trace,
    reasoning: state.reasoning,
    usage: state.usage,
    costUsd: state.costUsd,
    requests: state.requests,
    iterations: state.iterations,
    toolErrors: state.toolErrors,
    failureStreaks: Object.fromEntries(state.failureStreaks),
    outputRetries: state.outputRetries,
    providerUsed: state.providerUsed,
    durationMs: result.durationMs,
    unstampedFrom: state.unstampedFrom,
  }
  if (sessionId !== undefined) saved.sessionId = sessionId
  if (state.memory) saved.memory = { ...state.memory }
  if (state.usageByAgent) saved.usageByAgent = Object.fromEntries(state.usageByAgent)
  return JSON.parse(JSON.stringify(saved)) as RunState
}

/**
 * The loop state of an interrupted run, for `agent.resume`: checks that the state is one this agent can resume and
 * that every pending call has exactly one decision. Misuse throws a ConfigError saying what to fix.
 */
export async function restoreRun(
  root: ResolvedAgent,
  saved: RunState,
  decisions: readonly ApprovalDecision[],
  options: RunOptions,
): Promise<LoopState> {
  const where = `Agent \`${root.name}\`: cannot resume`
  if (typeof saved !== 'object' || (saved as { version?: unknown } | null)?.version !== 1)
    throw new ConfigError(`${where}: the state is not a run state of this version (expected \`version: 1\`).`)
  if (saved.agent !== root.name)
    throw new ConfigError(`${where} a run of agent \`${saved.agent}\`: call \`resume\` on that agent.`)
  checkDecisions(where, saved.pending, decisions)
  const current = saved.currentAgent === root.name ? root : await findTeamMember(root, saved.currentAgent)
  if (!current)
    throw new ConfigError(
      `${where}: agent \`${saved.currentAgent}\` answered last, and \`${root.name}\` cannot hand over to it.`,
    )
  const { signal, deps } = options
  const state = new LoopState(
    { ...current, observers: [...new Set([...root.observers, ...current.observers])] },
    [],
    { history: saved.messages, ...(signal && { signal }), ...(deps !== undefined && { deps }) },
    { runId: saved.runId, elapsedMs: saved.durationMs, rootAgent: root.name },
  )
  state.toolCalls.push(...saved.toolCalls)
  state.trace.push(...saved.trace)
  state.reasoning.push(...saved.reasoning)
  state.usage = saved.usage
  state.costUsd = saved.costUsd
  state.requests = saved.requests
  state.iterations = saved.iterations
  state.toolErrors = saved.toolErrors
  for (const [tool, streak] of Object.entries(saved.failureStreaks)) state.failureStreaks.set(tool, streak)
  state.outputRetries = saved.outputRetries
  state.providerUsed = saved.providerUsed
  if (saved.memory) state.memory = { ...saved.memory }
  if (saved.usageByAgent) state.usageByAgent = new Map(Object.entries(saved.usageByAgent))
  if (saved.unstampedFrom !== undefined) state.unstampedFrom = saved.unstampedFrom
  return state
}

function checkDecisions(
  where: string,
  pending: readonly PendingApproval[],
  decisions: readonly ApprovalDecision[],
): void {
  const waiting = new Set(pending.map((call) => call.callId))
  const seen = new Set<string>()
  for (const decision of decisions) {
    if (!waiting.has(decision.callId))
      throw new ConfigError(
        `${where}: no pending call has id \`${decision.callId}\`; pending: ${[...waiting].map((id) => `\`${id}\``).join(', ')}.`,
      )
    if (seen.has(decision.callId))
      throw new ConfigError(`${where}: call \`${decision.callId}\` has two decisions; give one.`)
    seen.add(decision.callId)
  }
  const missing = pending.filter((call) => !seen.has(call.callId))
  if (missing.length > 0)
    throw new ConfigError(
      `${where}: decide every pending call; missing ${missing.map((call) => `\`${call.callId}\` (${call.name})`).join(', ')}.`,
    )
}
