import { toError } from '../../errors.ts'
import { decide } from '../../tools/policy.ts'
import type { AnyTool } from '../../tools/tool.ts'
import type { PolicyDecision, ToolCallRequest } from '../../types.ts'
import type { ToolRunScope } from '../tool-scope.ts'

/** What the policy and the tool say of a valid call before anyone is asked: run it, deny it, or have it reviewed. */
export interface Ruling {
  decision: PolicyDecision
  reason: string
}

/** The policy's decision, turned to `review` when the policy allows a call of a tool that `needsApproval`. */
export async function ruleOn(
  tool: AnyTool | undefined,
  call: ToolCallRequest,
  args: unknown,
  scope: ToolRunScope,
): Promise<Ruling> {
  const ruling: Ruling = scope.policy
    ? decide(scope.policy, call.name, args)
    : { decision: 'allow', reason: 'no policy' }
  if (ruling.decision !== 'allow' || tool?.needsApproval === undefined || tool.needsApproval === false)
    return ruling
  if (tool.needsApproval === true)
    return { decision: 'review', reason: `tool \`${call.name}\` needs approval` }
  try {
    const context = { deps: scope.deps, runId: scope.runId, callId: call.id }
    return (await tool.needsApproval(args as Record<string, unknown>, context))
      ? { decision: 'review', reason: `\`needsApproval\` of tool \`${call.name}\` asked for approval` }
      : ruling
  } catch (error) {
    // a check that fails must not let the call through unreviewed
    return {
      decision: 'review',
      reason: `\`needsApproval\` of tool \`${call.name}\` threw: ${toError(error).message}`,
    }
  }
}

/** Whether a call under review can end the run to wait for a person: there is no `confirm` to ask instead. */
export function interruptsForReview(scope: ToolRunScope): boolean {
  return scope.confirm === undefined
}
