import { createHash } from 'node:crypto'
import pLimit from 'p-limit'
import { TimeoutError, toError } from '../errors.ts'
import { decide, type PolicyRules } from '../tools/policy.ts'
import type { AnyTool, ToolContext } from '../tools/tool.ts'
import { checkToolArguments } from '../tools/validate.ts'
import type { ToolCallRecord, ToolCallRequest, TraceStep } from '../types.ts'
import { canonicalJson } from '../util/canonical-json.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import type { ResponseCache } from './cache.ts'
import { callScopeReader } from './call-scope.ts'
import { ModelRetry } from './model-retry.ts'
import { notify } from './notify.ts'
import type { Observer } from './observer.ts'
import type { EmitEvent } from './event-channel.ts'

const currentCallScope = callScopeReader()

/** Everything the tool runner needs from the run. */
export interface ToolRunScope {
  runId: string
  agent: string
  tools: ReadonlyMap<string, AnyTool>
  deps: unknown
  signal: AbortSignal
  observers: readonly Observer[]
  awaitObservers: boolean
  trace: TraceStep[]
  emit: EmitEvent | undefined
  policy: PolicyRules | undefined
  confirm: ((call: ToolCallRequest & { args: unknown }) => boolean | Promise<boolean>) | undefined
  confirmTimeoutMs: number
  defaultTimeoutMs: number
  parallel: boolean
  concurrency: number
  /** where cacheable tools keep results: the agent's cache, else one for the run */
  toolCache: ResponseCache | undefined
}

/** One finished call: the record for the result, the text for the model, and whether it succeeded. */
export interface ToolOutcome {
  record: ToolCallRecord
  /** the tool that ran, when the name was known */
  tool: AnyTool | undefined
  ok: boolean
  /** what the model is sent as the tool result */
  content: string
}

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

async function runToolCall(call: ToolCallRequest, scope: ToolRunScope): Promise<ToolOutcome> {
  const startedAt = Date.now()
  const started = performance.now()
  const tool = scope.tools.get(call.name)
  const fail = async (args: unknown, error: string): Promise<ToolOutcome> => {
    const record: ToolCallRecord = {
      id: call.id,
      name: call.name,
      args,
      error,
      durationMs: performance.now() - started,
    }
    scope.trace.push({
      type: 'tool_result',
      startedAt,
      durationMs: record.durationMs,
      callId: call.id,
      name: call.name,
      ok: false,
      error,
    })
    await notify(
      scope.observers,
      'onToolError',
      {
        runId: scope.runId,
        agent: scope.agent,
        callId: call.id,
        call: record,
      },
      scope.awaitObservers,
    )
    if (scope.emit)
      await scope.emit({ type: 'tool-result', callId: call.id, name: call.name, ok: false, error })
    return { record, tool, ok: false, content: error }
  }

  const notRun = `Tool \`${call.name}\` was not run: the run was aborted.`
  if (scope.signal.aborted) return fail(call.arguments, notRun)
  if (!tool) return fail(call.arguments, unknownToolMessage(call.name, scope.tools))
  const checked = checkToolArguments(tool, call.arguments)
  scope.trace.push({
    type: 'tool_call',
    startedAt,
    durationMs: 0,
    callId: call.id,
    name: call.name,
    args: checked.args,
  })
  if (!checked.ok) return fail(checked.args, checked.error)

  const denial = await checkPolicy(call, checked.args, scope)
  if (denial !== undefined) return fail(checked.args, denial)
  if (isAborted(scope.signal)) return fail(checked.args, notRun)

  // under `agent.stream()` this waits for the reader, who may leave the loop instead
  if (scope.emit)
    await scope.emit({ type: 'tool-call', callId: call.id, name: call.name, args: checked.args })
  if (isAborted(scope.signal)) return fail(checked.args, notRun)
  await notify(
    scope.observers,
    'onToolStart',
    {
      runId: scope.runId,
      agent: scope.agent,
      callId: call.id,
      name: call.name,
      args: checked.args,
    },
    scope.awaitObservers,
  )
  // an awaited observer may have taken long enough for the run to be aborted
  if (isAborted(scope.signal)) return fail(checked.args, notRun)
  try {
    const result = await cachedExecute(tool, checked.args, call, scope)
    const record: ToolCallRecord = {
      id: call.id,
      name: call.name,
      args: checked.args,
      result,
      durationMs: performance.now() - started,
    }
    scope.trace.push({
      type: 'tool_result',
      startedAt,
      durationMs: record.durationMs,
      callId: call.id,
      name: call.name,
      ok: true,
      result,
    })
    await notify(
      scope.observers,
      'onToolEnd',
      {
        runId: scope.runId,
        agent: scope.agent,
        callId: call.id,
        call: record,
      },
      scope.awaitObservers,
    )
    if (scope.emit)
      await scope.emit({ type: 'tool-result', callId: call.id, name: call.name, ok: true, result })
    return { record, tool, ok: true, content: toolResultText(result) }
  } catch (error) {
    const reason = toError(error)
    const message =
      reason instanceof TimeoutError
        ? `Tool \`${call.name}\` timed out after ${reason.timeoutMs} ms.`
        : reason instanceof ModelRetry
          ? reason.message
          : `Tool \`${call.name}\` failed: ${reason.message}`
    return fail(checked.args, message)
  }
}

/** Serves a cacheable tool's result from the cache (a `tool_cache_hit` step), or runs it and stores the result. */
async function cachedExecute(
  tool: AnyTool,
  args: unknown,
  call: ToolCallRequest,
  scope: ToolRunScope,
): Promise<unknown> {
  const cache = tool.cache ? scope.toolCache : undefined
  if (!cache || !tool.cache) return recordedExecute(tool, args, call, scope)
  const options = tool.cache === true ? {} : tool.cache
  const identity: unknown = options.key ? options.key(args as Record<string, unknown>) : args
  const key = `tool:${tool.name}:${createHash('sha256').update(canonicalJson(identity)).digest('hex')}`
  const startedAt = Date.now()
  const hit = (await cache.get(key)) as { result: unknown } | undefined
  if (hit) {
    scope.trace.push({
      type: 'tool_cache_hit',
      startedAt,
      durationMs: 0,
      callId: call.id,
      name: call.name,
      key,
    })
    return hit.result
  }
  const result = await recordedExecute(tool, args, call, scope)
  await cache.set(key, { result }, options.ttlMs === undefined ? undefined : { ttlMs: options.ttlMs })
  return result
}

/** Runs the tool, or with `record: true` under the runner's cassette, serves or saves its outcome. */
async function recordedExecute(
  tool: AnyTool,
  args: unknown,
  call: ToolCallRequest,
  scope: ToolRunScope,
): Promise<unknown> {
  const ambient = tool.record === true ? currentCallScope() : undefined
  const recorded = ambient?.recorder?.tool({ scope: ambient, tool: tool.name, args })
  if (!recorded) return execute(tool, args, call, scope)
  const replayed = recorded.replayed
  if (replayed) {
    if (replayed.ok) return replayed.result
    throw new Error(replayed.error)
  }
  try {
    const result = await execute(tool, args, call, scope)
    recorded.save({ ok: true, result })
    return result
  } catch (error) {
    // a timeout or an abort is not the tool's answer: leave it out of the cassette
    if (!(error instanceof TimeoutError) && !scope.signal.aborted)
      recorded.save({ ok: false, error: toError(error).message })
    throw error
  }
}

async function execute(
  tool: AnyTool,
  args: unknown,
  call: ToolCallRequest,
  scope: ToolRunScope,
): Promise<unknown> {
  const timeoutMs = tool.timeoutMs ?? scope.defaultTimeoutMs
  const controller = new AbortController()
  const onAbort = (): void => {
    controller.abort(scope.signal.reason)
  }
  scope.signal.addEventListener('abort', onAbort, { once: true })
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`Tool \`${call.name}\` timed out after ${timeoutMs} ms.`, timeoutMs)
      controller.abort(error)
      reject(error)
    }, timeoutMs)
  })
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => {
      reject(toError(controller.signal.reason))
    })
  })
  // a tool that throws synchronously never reaches the race below, and `finally` still aborts the controller
  aborted.catch(() => undefined)
  const context: ToolContext = {
    deps: scope.deps,
    signal: controller.signal,
    runId: scope.runId,
    callId: call.id,
    emit: (chunk) => {
      // the call already ended (finished, timed out or aborted): late chunks would be misleading
      if (controller.signal.aborted) return
      void notify(scope.observers, 'onToolChunk', {
        runId: scope.runId,
        agent: scope.agent,
        callId: call.id,
        name: call.name,
        chunk,
      })
      void scope.emit?.({ type: 'tool-chunk', callId: call.id, name: call.name, chunk })
    },
  }
  try {
    const returned: unknown = (tool.execute as (args: unknown, context: ToolContext) => unknown)(
      args,
      context,
    )
    const work = isAsyncGenerator(returned) ? drain(returned, context) : Promise.resolve(returned)
    return await Promise.race([work, timeout, aborted])
  } finally {
    clearTimeout(timer)
    scope.signal.removeEventListener('abort', onAbort)
    if (!controller.signal.aborted) controller.abort()
  }
}

async function drain(generator: AsyncGenerator<unknown, unknown>, context: ToolContext): Promise<unknown> {
  while (true) {
    const step = await generator.next()
    if (step.done) return step.value
    if (context.signal.aborted) {
      // timed out or aborted: the result is decided, so stop the generator instead of running it to the end
      generator.return(undefined).catch(() => undefined)
      return undefined
    }
    context.emit(step.value)
  }
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value && 'next' in value
}

async function checkPolicy(
  call: ToolCallRequest,
  args: unknown,
  scope: ToolRunScope,
): Promise<string | undefined> {
  if (!scope.policy) return undefined
  const startedAt = Date.now()
  let { decision, reason } = decide(scope.policy, call.name, args)
  if (decision === 'review') {
    const approved = await askConfirm(call, args, scope)
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
