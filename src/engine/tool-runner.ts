import pLimit from 'p-limit'
import type { ToolCallRequest } from '../types.ts'
import { runToolCall } from './tool-call.ts'
import type { ToolOutcome, ToolRunScope } from './tool-scope.ts'

/**
 * Runs the calls of one model reply; outcomes come back in call order and one failure never cancels another. With
 * `parallel`, calls of read-only tools run at once, then the others one by one in call order.
 */
export async function runToolCalls(
  calls: readonly ToolCallRequest[],
  scope: ToolRunScope,
): Promise<ToolOutcome[]> {
  if (!scope.parallel || calls.length === 1) return runInOrder(calls, scope)
  // an unknown tool only fails, so it cannot write either
  const readsOnly = (call: ToolCallRequest): boolean => {
    const tool = scope.tools.get(call.name)
    return tool === undefined || tool.readOnly === true
  }
  const outcomes: ToolOutcome[] = new Array<ToolOutcome>(calls.length)
  const indexed = calls.map((call, index) => ({ call, index }))
  const limit = pLimit(scope.concurrency)
  await Promise.all(
    indexed
      .filter(({ call }) => readsOnly(call))
      .map(({ call, index }) =>
        limit(async () => {
          outcomes[index] = await runToolCall(call, scope)
        }),
      ),
  )
  for (const { call, index } of indexed.filter(({ call }) => !readsOnly(call)))
    outcomes[index] = await runToolCall(call, scope)
  return outcomes
}

async function runInOrder(calls: readonly ToolCallRequest[], scope: ToolRunScope): Promise<ToolOutcome[]> {
  const outcomes: ToolOutcome[] = []
  for (const call of calls) outcomes.push(await runToolCall(call, scope))
  return outcomes
}
