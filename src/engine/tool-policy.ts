import { toError } from '../errors.ts'
import type { AnyTool } from '../tools/tool.ts'
import type { ToolCallRequest } from '../types.ts'
import { decideReview } from './approvals/decided.ts'
import { ruleOn } from './approvals/review.ts'
import { notify } from './notify.ts'
import type { ToolRunScope } from './tool-scope.ts'

/**
 * Asks the agent's policy and the tool's `needsApproval` whether the call may run; a call under review runs when a
 * person approved it (a resumed run) or `confirm` says yes. Traces and observes the decision, and returns the message
 * for the model when it is denied.
 */
export async function checkPolicy(
  call: ToolCallRequest,
  args: unknown,
  scope: ToolRunScope,
  tool?: AnyTool,
): Promise<string | undefined> {
  if (!scope.policy && (tool?.needsApproval === undefined || tool.needsApproval === false)) return undefined
  const startedAt = Date.now()
  let { decision, reason } = await ruleOn(tool, call, args, scope)
  if (decision === 'review') {
    const decided = scope.approvals?.get(call.id)
    const approved = decided ? decideReview(call, decided, scope) : await askConfirm(call, args, scope)
    decision = approved.ok ? 'allow' : 'deny'
    reason = `${reason}; ${approved.reason}`
  }
  scope.trace.push({
    type: 'policy',
    startedAt,
    durationMs: Date.now() - startedAt,
    callId: call.id,
    name: call.name,
    decision,
    reason,
  })
  await notify(
    scope.observers,
    'onPolicyDecision',
    {
      runId: scope.runId,
      agent: scope.agent,
      callId: call.id,
      name: call.name,
      decision,
      reason,
    },
    scope.awaitObservers,
  )
  return decision === 'deny'
    ? `Tool call \`${call.name}\` was denied by policy (${reason}). Do not retry it; continue without it.`
    : undefined
}

async function askConfirm(
  call: ToolCallRequest,
  args: unknown,
  scope: ToolRunScope,
): Promise<{ ok: boolean; reason: string }> {
  if (!scope.confirm) return { ok: false, reason: 'no confirm callback, so review means deny' }
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout')
    }, scope.confirmTimeoutMs)
  })
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => {
      resolve('aborted')
    }
    scope.signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    const answer = await Promise.race([Promise.resolve(scope.confirm({ ...call, args })), timedOut, aborted])
    if (answer === 'timeout')
      return { ok: false, reason: `confirm did not answer within ${scope.confirmTimeoutMs} ms` }
    if (answer === 'aborted') return { ok: false, reason: 'the run was aborted while waiting for confirm' }
    return answer ? { ok: true, reason: 'confirmed' } : { ok: false, reason: 'confirm refused' }
  } catch (error) {
    return { ok: false, reason: `confirm threw: ${toError(error).message}` }
  } finally {
    clearTimeout(timer)
    if (onAbort) scope.signal.removeEventListener('abort', onAbort)
  }
}
