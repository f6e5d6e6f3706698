import type { ToolCallRequest } from '../../types.ts'
import type { ToolRunScope } from '../tool-scope.ts'
import type { ApprovalDecision } from './approval.ts'

/** A person's decision on a call under review, as the policy check takes it; traced as an `approval` step. */
export function decideReview(
  call: ToolCallRequest,
  decision: ApprovalDecision,
  scope: ToolRunScope,
): { ok: boolean; reason: string } {
  const said = decision.reason ? `: ${decision.reason}` : ''
  const reason = decision.approved ? `approved${said}` : `rejected${said}`
  scope.trace.push({
    type: 'approval',
    startedAt: Date.now(),
    durationMs: 0,
    callId: call.id,
    name: call.name,
    status: decision.approved ? 'approved' : 'rejected',
    reason: decision.reason ?? (decision.approved ? 'approved' : 'rejected'),
  })
  return { ok: decision.approved, reason }
}
