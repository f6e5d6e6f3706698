import pLimit from 'p-limit'
import type { AnyTool } from '../tools/tool.ts'
import { checkToolArguments, type ArgumentsCheck } from '../tools/validate.ts'
import type { ToolCallRequest } from '../types.ts'
import { runToolCall } from './tool-call.ts'
import type { ToolOutcome, ToolRunScope } from './tool-scope.ts'

/** A call as the scheduler sees it: its checked arguments, whether it writes, and the resource it works on. */
interface Planned {
  call: ToolCallRequest
  checked: ArgumentsCheck | undefined
  writes: boolean
  resource: string | undefined
}

/**
 * Runs the calls of one model reply; outcomes come back in call order and one failure never cancels another. With
 * `parallel`, a call starts once every earlier call it conflicts with has ended: consecutive read-only calls run at
 * once, a write waits for the calls before it and holds back the calls after it, and calls on one `resource` run
 * one after another.
 */
export async function runToolCalls(
  calls: readonly ToolCallRequest[],
  scope: ToolRunScope,
): Promise<ToolOutcome[]> {
  const planned = calls.map((call) => plan(call, scope.tools.get(call.name)))
  if (!scope.parallel || calls.length === 1) return runInOrder(planned, scope)
  const limit = pLimit(scope.concurrency)
  const running: { planned: Planned; outcome: Promise<ToolOutcome> }[] = []
  for (const current of planned) {
    const before = running
      .filter((earlier) => conflict(earlier.planned, current))
      .map((earlier) => earlier.outcome)
    const outcome = Promise.all(before).then(() =>
      limit(() => runToolCall(current.call, scope, current.checked)),
    )
    running.push({ planned: current, outcome })
  }
  return Promise.all(running.map((entry) => entry.outcome))
}

async function runInOrder(planned: readonly Planned[], scope: ToolRunScope): Promise<ToolOutcome[]> {
  const outcomes: ToolOutcome[] = []
  for (const { call, checked } of planned) outcomes.push(await runToolCall(call, scope, checked))
  return outcomes
}

function plan(call: ToolCallRequest, tool: AnyTool | undefined): Planned {
  // an unknown tool only fails, so it cannot write either
  if (!tool) return { call, checked: undefined, writes: false, resource: undefined }
  const checked = checkToolArguments(tool, call.arguments)
  return { call, checked, writes: tool.readOnly !== true, resource: resourceOf(tool, checked) }
}

function resourceOf(tool: AnyTool, checked: ArgumentsCheck): string | undefined {
  if (!tool.resource || !checked.ok) return undefined
  try {
    return tool.resource(checked.args as Record<string, unknown>)
  } catch {
    // a key that cannot be computed claims every resource, as a call without one does
    return undefined
  }
}

/** Two calls conflict when they share a resource, or one writes and either may touch anything. */
function conflict(earlier: Planned, later: Planned): boolean {
  const same = earlier.resource !== undefined && earlier.resource === later.resource
  if (same) return true
  if (!earlier.writes && !later.writes) return false
  return earlier.resource === undefined || later.resource === undefined
}
