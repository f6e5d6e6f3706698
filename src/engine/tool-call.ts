import { TimeoutError, toError } from '../errors.ts'
import type { AnyTool } from '../tools/tool.ts'
import { limitResultText } from '../tools/result-limit.ts'
import { checkToolArguments, type ArgumentsCheck } from '../tools/validate.ts'
import type { ToolCallRecord, ToolCallRequest } from '../types.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { ModelRetry } from './model-retry.ts'
import { startClock, type CallClock } from './call-clock.ts'
import { notify } from './notify.ts'
import { cachedExecute } from './tool-execute.ts'
import { checkPolicy } from './tool-policy.ts'
import type { ToolOutcome, ToolRunScope } from './tool-scope.ts'

/**
 * Runs one tool call: validates its arguments (unless the scheduler already did), asks the policy, announces it,
 * runs it; every outcome, failures included, lands in the trace, the observers and the stream.
 */
export async function runToolCall(
  call: ToolCallRequest,
  scope: ToolRunScope,
  validated?: ArgumentsCheck,
): Promise<ToolOutcome> {
  const clock = startClock()
  const tool = scope.tools.get(call.name)
  const announced = { done: false }
  const fail = (args: unknown, error: string): Promise<ToolOutcome> =>
    endCall({ call, tool, args, clock, announced }, { ok: false, error }, scope)
  if (scope.signal.aborted) return fail(call.arguments, notRunMessage(call))
  if (!tool) return fail(call.arguments, unknownToolMessage(call.name, scope.tools))
  const checked = validated ?? checkToolArguments(tool, call.arguments)
  scope.trace.push({
    type: 'tool_call',
    startedAt: clock.startedAt,
    durationMs: 0,
    callId: call.id,
    name: call.name,
    args: checked.args,
  })
  if (!checked.ok) return fail(checked.args, checked.error)
  const refusal = await refusalBeforeRun(call, checked.args, scope, tool, announced)
  if (refusal !== undefined) return fail(checked.args, refusal)
  try {
    const result = await cachedExecute(tool, checked.args, call, scope)
    return await endCall({ call, tool, args: checked.args, clock, announced }, { ok: true, result }, scope)
  } catch (error) {
    return fail(checked.args, failureMessage(call, error))
  }
}

/**
 * Why a valid call must not run after all (a policy denial, or an abort while it was announced to the stream and
 * the observers); undefined to run it.
 */
async function refusalBeforeRun(
  call: ToolCallRequest,
  args: unknown,
  scope: ToolRunScope,
  tool: AnyTool,
  announced: { done: boolean },
): Promise<string | undefined> {
  const denial = await checkPolicy(call, args, scope, tool)
  if (denial !== undefined) return denial
  if (isAborted(scope.signal)) return notRunMessage(call)
  // under `agent.stream()` this waits for the reader, who may leave the loop instead
  await announce(call, args, scope, announced)
  if (isAborted(scope.signal)) return notRunMessage(call)
  const { runId, agent } = scope
  const event = { runId, agent, callId: call.id, name: call.name, args }
  await notify(scope.observers, 'onToolStart', event, scope.awaitObservers)
  // an awaited observer may have taken long enough for the run to be aborted
  if (isAborted(scope.signal)) return notRunMessage(call)
  return undefined
}

/** Streams the call as the model made it, once: before it runs, or before its failure when it never ran. */
async function announce(
  call: ToolCallRequest,
  args: unknown,
  scope: ToolRunScope,
  announced: { done: boolean },
): Promise<void> {
  if (announced.done) return
  announced.done = true
  if (scope.emit) await scope.emit({ type: 'tool-call', callId: call.id, name: call.name, args })
}

/** One call as its outcome is reported. */
interface CallOfRun {
  call: ToolCallRequest
  tool: AnyTool | undefined
  args: unknown
  clock: CallClock
  announced: { done: boolean }
}

/**
 * Records, traces, observes and streams how a call ended. The trace notes the size of the result, not the result:
 * the call record holds the value and the conversation its text, so a large result is not kept a third time.
 */
async function endCall(
  { call, tool, args, clock, announced }: CallOfRun,
  end: { ok: true; result: unknown } | { ok: false; error: string },
  scope: ToolRunScope,
): Promise<ToolOutcome> {
  const { id: callId, name } = call
  const { ok } = end
  const durationMs = performance.now() - clock.started
  const outcome = end.ok ? { result: end.result } : { error: end.error }
  const sent = end.ok
    ? limitResultText(toolResultText(end.result), tool?.maxResultChars ?? scope.maxResultChars)
    : { text: end.error }
  const content = sent.text
  const record: ToolCallRecord = { id: callId, name, args, ...outcome, durationMs }
  scope.trace.push({
    type: 'tool_result',
    startedAt: clock.startedAt,
    durationMs,
    callId,
    name,
    ok,
    ...(end.ok ? { resultChars: content.length } : { error: end.error }),
    ...(sent.truncatedFrom === undefined ? {} : { truncatedFrom: sent.truncatedFrom }),
  })
  const event = { runId: scope.runId, agent: scope.agent, callId, call: record }
  await notify(scope.observers, ok ? 'onToolEnd' : 'onToolError', event, scope.awaitObservers)
  await announce(call, args, scope, announced)
  if (scope.emit) await scope.emit({ type: 'tool-result', callId, name, ok, ...outcome })
  return { record, tool, ok, content }
}

function failureMessage(call: ToolCallRequest, error: unknown): string {
  const reason = toError(error)
  if (reason instanceof TimeoutError) return `Tool \`${call.name}\` timed out after ${reason.timeoutMs} ms.`
  if (reason instanceof ModelRetry) return reason.message
  return `Tool \`${call.name}\` failed: ${reason.message}`
}

function notRunMessage(call: ToolCallRequest): string {
  return `Tool \`${call.name}\` was not run: the run was aborted.`
}

/** Reads the flag afresh: it can change while a call awaits. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted
}

function unknownToolMessage(name: string, tools: ReadonlyMap<string, AnyTool>): string {
  const known = [...tools.keys()]
  const suggestion = didYouMean(name, known)
  const hint = suggestion ? ` Did you mean \`${suggestion}\`?` : ''
  return `Unknown tool \`${name}\`.${hint} Available tools: ${known.map((tool) => `\`${tool}\``).join(', ') || 'none'}.`
}

/** What a tool result looks like to the model: strings as they are, everything else as JSON. */
export function toolResultText(result: unknown): string {
  if (typeof result === 'string') return result
  return result === undefined ? 'null' : JSON.stringify(result)
}
