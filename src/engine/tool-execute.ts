import { createHash } from 'node:crypto'
import { TimeoutError, toError } from '../errors.ts'
import type { AnyTool, ToolContext } from '../tools/tool.ts'
import type { ToolCallRequest } from '../types.ts'
import { canonicalJson } from '../util/canonical-json.ts'
import { callScopeReader } from './call-scope.ts'
import { notify } from './notify.ts'
import type { ToolRunScope } from './tool-scope.ts'

const currentCallScope = callScopeReader()

/** Serves a cacheable tool's result from the cache (a `tool_cache_hit` step), or runs it and stores the result. */
export async function cachedExecute(
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
  const context = toolContextOf(call, scope, controller.signal)
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

/** What the tool's `execute` gets: its chunks go to the observers and the stream until the call ends. */
function toolContextOf(call: ToolCallRequest, scope: ToolRunScope, signal: AbortSignal): ToolContext {
  return {
    deps: scope.deps,
    signal,
    runId: scope.runId,
    callId: call.id,
    '~run': {
      adopt: (report) => scope.adopt?.(call.id, report),
      spanParent: () => scope.spanOfCall?.(call.id),
    },
    emit: (chunk) => {
      // the call already ended (finished, timed out or aborted): late chunks would be misleading
      if (signal.aborted) return
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
