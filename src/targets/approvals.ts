import { globToRegExp } from '../tools/policy.ts'
import type { ScriptedApproval } from './target.ts'

/** A pending call as an interrupted run reports it. */
interface PendingCall {
  callId: string
  name: string
  args: unknown
}

/** A decision for `agent.resume`. */
interface Decision {
  callId: string
  approved: boolean
  reason?: string
}

/** The decision of the first rule matching each pending call; undefined when some call matches no rule. */
export function scriptedDecisions(
  pending: readonly PendingCall[],
  rules: readonly ScriptedApproval[],
): Decision[] | undefined {
  const decisions: Decision[] = []
  for (const call of pending) {
    const rule = rules.find((candidate) => matches(candidate, call))
    if (!rule) return undefined
    const reason = rule.reason ?? `scripted in the case file: ${rule.decision} \`${rule.tool}\``
    decisions.push({ callId: call.callId, approved: rule.decision === 'approve', reason })
  }
  return decisions
}

function matches(rule: ScriptedApproval, call: PendingCall): boolean {
  if (!globToRegExp(rule.tool).test(call.name)) return false
  const args =
    typeof call.args === 'object' && call.args !== null ? (call.args as Record<string, unknown>) : {}
  return Object.entries(rule.args ?? {}).every(([key, pattern]) => {
    const value = args[key]
    return (
      value !== undefined &&
      globToRegExp(pattern).test(typeof value === 'string' ? value : JSON.stringify(value))
    )
  })
}
