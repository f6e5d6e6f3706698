import { checkToolArguments } from '../../tools/validate.ts'
import type { ToolCallRequest } from '../../types.ts'
import type { Ending } from '../endings.ts'
import type { LoopState } from '../loop-state.ts'
import type { ToolRunScope } from '../tool-scope.ts'
import type { PendingApproval } from './approval.ts'
import { interruptsForReview, ruleOn } from './review.ts'

/**
 * The calls of one reply that must wait for a person: valid calls under review (a `review` rule or the tool's
 * `needsApproval`) with no decision yet, when the agent has no `confirm` to ask instead. Invalid and unknown calls
 * are left to fail as usual.
 */
export async function pendingApprovals(
  calls: readonly ToolCallRequest[],
  scope: ToolRunScope,
): Promise<PendingApproval[]> {
  if (!interruptsForReview(scope)) return []
  const pending: PendingApproval[] = []
  for (const call of calls) {
    const tool = scope.tools.get(call.name)
    if (!tool || scope.approvals?.has(call.id)) continue
    const checked = checkToolArguments(tool, call.arguments)
    if (!checked.ok) continue
    const { decision, reason } = await ruleOn(tool, call, checked.args, scope)
    if (decision === 'review')
      pending.push({ callId: call.id, name: call.name, args: checked.args, reason, agent: scope.agent })
  }
  return pending
}

/** Ends the run to wait for decisions on `pending`: each call is an `approval` step, and observers are told. */
export async function interruptForApproval(state: LoopState, pending: PendingApproval[]): Promise<Ending> {
  const startedAt = Date.now()
  for (const call of pending) {
    state.trace.push({
      type: 'approval',
      startedAt,
      durationMs: 0,
      callId: call.callId,
      name: call.name,
      status: 'pending',
      reason: call.reason,
    })
  }
  await state.endIteration()
  await state.observe('onInterrupt', { runId: state.runId, agent: state.agent.name, pending })
  return { stopReason: 'interrupted', output: '', interruptions: pending }
}
