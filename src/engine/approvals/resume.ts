import { ConfigError } from '../../errors.ts'
import type { AgentResult, RunOptions } from '../agent-run.ts'
import type { EmitEvent } from '../event-channel.ts'
import type { AgentLoop } from '../loop-state.ts'
import type { ResolvedAgent } from '../resolved-agent.ts'
import { driveRun } from '../run.ts'
import type { HeldSession } from '../sessions/run-session.ts'
import { runStepCalls } from '../tool-step.ts'
import type { ApprovalDecision, RunState } from './approval.ts'
import { restoreRun } from './run-state.ts'

/** What `agent.resume` takes besides the state and the decisions. */
export type ResumeOptions<Deps = unknown> = Pick<RunOptions<Deps>, 'signal' | 'deps' | 'trial'>

/**
 * Goes on with an interrupted run: runs the approved calls, tells the model why the rejected ones did not run, and
 * continues the loop to its end. The result covers the whole run, before and after the interruption.
 */
export async function executeResume(
  root: ResolvedAgent,
  saved: RunState,
  decisions: readonly ApprovalDecision[],
  options: ResumeOptions,
  emit?: EmitEvent,
): Promise<AgentResult<unknown>> {
  const state = await restoreRun(root, saved, decisions, options)
  const session =
    saved.sessionId === undefined ? undefined : await relock(root, saved.sessionId, options.signal)
  const approvals = new Map(decisions.map((decision) => [decision.callId, decision]))
  try {
    const runOptions: RunOptions = session ? { ...options, sessionId: session.id } : options
    return await driveRun(state, { options: runOptions, emit, input: decisions, session }, (loop) =>
      runHeldCalls(loop, approvals),
    )
  } finally {
    await session?.release()
  }
}

async function runHeldCalls(loop: AgentLoop, approvals: ReadonlyMap<string, ApprovalDecision>) {
  const last = loop.state.messages.at(-1)
  if (last?.role !== 'assistant' || !last.toolCalls?.length)
    throw new Error('The run state does not end with the tool calls that waited for approval.')
  loop.toolScope.approvals = approvals
  try {
    return await runStepCalls(loop, last.toolCalls)
  } finally {
    loop.toolScope.approvals = undefined
  }
}

/** Takes the lock of the interrupted run's session again; the state, not the store, holds its conversation. */
async function relock(
  root: ResolvedAgent,
  id: string,
  signal: AbortSignal | undefined,
): Promise<HeldSession> {
  if (!root.sessions)
    throw new ConfigError(
      `Agent \`${root.name}\`: the run to resume belongs to session \`${id}\`; give the agent its \`sessions\` store.`,
    )
  const release = await root.sessions.lock(id, signal)
  return { id, store: root.sessions, history: [], summary: undefined, release }
}
