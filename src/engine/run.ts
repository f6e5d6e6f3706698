import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { toError } from '../errors.ts'
import type { CompletionRequest, ModelSettings, Provider } from '../providers/provider.ts'
import type { PolicyRules } from '../tools/policy.ts'
import type { AnyTool } from '../tools/tool.ts'
import {
  addUsage,
  emptyUsage,
  type Message,
  type StopReason,
  type ToolCallRecord,
  type ToolCallRequest,
  type TraceStep,
} from '../types.ts'
import { MemoryCache, type ResponseCache } from './cache.ts'
import { checkFinalOutput, type ErasedOutputValidator } from './final-output.ts'
import { callModel, type ModelCallScope } from './model-call.ts'
import { prepareTools, type ErasedPrepareTools, type OfferedTools } from './prepare-tools.ts'
import { notify } from './notify.ts'
import type { EmitEvent } from './event-channel.ts'
import type { Observer } from './observer.ts'
import type { ModelPrice, UsageLimits } from './options.ts'
import type { AgentInput, AgentResult, RunOptions } from './agent-run.ts'
import { costOf } from './pricing.ts'
import type { ResolvedRetry } from './retry.ts'
import { nextStep, type Step } from './steps.ts'
import { runToolCalls, toolResultText, type ToolRunScope } from './tool-runner.ts'
import { usageLimitExceeded, type LimitStop } from './usage-limits.ts'

/** An Agent's options with every default applied. */
export interface ResolvedAgent {
  name: string
  provider: Provider
  instructions: string | ((context: { deps: unknown }) => string) | undefined
  tools: ReadonlyMap<string, AnyTool>
  /** set when a tool has `prepare` or the agent has `prepareTools`: the tool list is decided at each step */
  prepareTools: ErasedPrepareTools | 'per-tool' | undefined
  maxIterations: number
  parallelTools: boolean
  toolConcurrency: number
  toolTimeoutMs: number
  toolRetries: number
  maxToolErrors: number
  stopWhen: ((call: ToolCallRecord, result: unknown) => boolean) | undefined
  policy: PolicyRules | undefined
  confirm: ((call: ToolCallRequest & { args: unknown }) => boolean | Promise<boolean>) | undefined
  confirmTimeoutMs: number
  output: z.ZodType | undefined
  /** the output schema takes a string: the reply text is validated as it is, not searched for JSON */
  outputPlainText: boolean
  outputJsonSchema: Record<string, unknown> | undefined
  outputValidators: readonly ErasedOutputValidator[]
  outputRetries: number
  settings: ModelSettings | undefined
  retry: ResolvedRetry
  requestTimeoutMs: number
  limits: UsageLimits | undefined
  cache: ResponseCache | undefined
  /** some tool has `cache`: without the agent's cache, each run gets its own */
  cachesTools: boolean
  observers: readonly Observer[]
  /** each hook's promise is awaited before the run goes on */
  awaitObservers: boolean
  deps: unknown
  prices: Record<string, ModelPrice> | undefined
}

type Ending = { stopReason: StopReason; output: string; parsed?: unknown; error?: string }

/** Runs the agent loop to the end; failures of the model or tools end up in the result, never thrown. */
export async function executeRun(
  agent: ResolvedAgent,
  input: AgentInput,
  options: RunOptions,
  emit?: EmitEvent,
): Promise<AgentResult<unknown>> {
  const started = performance.now()
  const runId = randomUUID()
  const signal = options.signal ?? new AbortController().signal
  const deps = options.deps ?? agent.deps
  const trace: TraceStep[] = []
  const messages: Message[] = [...(options.history ?? []), ...toMessages(input)]
  const toolCalls: ToolCallRecord[] = []
  const reasoning: string[] = []
  let usage = emptyUsage()
  let costUsd: number | null = 0
  let requests = 0
  let iterations = 0
  let providerUsed = agent.provider.id
  const failureStreaks = new Map<string, number>()
  let toolErrors = 0
  let outputRetries = 0

  const observe = <Hook extends keyof Observer>(
    hook: Hook,
    event: Parameters<NonNullable<Observer[Hook]>>[0],
  ): Promise<void> | undefined => notify(agent.observers, hook, event, agent.awaitObservers)
  await observe('onRunStart', { runId, agent: agent.name, input })
  const modelScope: ModelCallScope = {
    runId,
    agent: agent.name,
    provider: agent.provider,
    signal,
    observers: agent.observers,
    awaitObservers: agent.awaitObservers,
    trace,
    retry: agent.retry,
    requestTimeoutMs: agent.requestTimeoutMs,
    cache: agent.cache,
    trial: options.trial ?? 0,
    emit,
  }
  const toolScope: ToolRunScope = {
    runId,
    agent: agent.name,
    tools: agent.tools,
    deps,
    signal,
    observers: agent.observers,
    awaitObservers: agent.awaitObservers,
    trace,
    emit,
    policy: agent.policy,
    confirm: agent.confirm,
    confirmTimeoutMs: agent.confirmTimeoutMs,
    defaultTimeoutMs: agent.toolTimeoutMs,
    parallel: agent.parallelTools,
    concurrency: agent.toolConcurrency,
    toolCache: agent.cache ?? (agent.cachesTools ? new MemoryCache() : undefined),
  }
  const system = systemPrompt(agent, deps)
  const allTools: OfferedTools = {
    schemas: [...agent.tools.values()].map((tool) => tool.schema),
    tools: agent.tools,
  }

  // the iteration whose model call was made and whose end is not yet observed; 0 when none
  let openIteration = 0
  const endIteration = async (): Promise<void> => {
    if (openIteration === 0) return
    const iteration = openIteration
    openIteration = 0
    await observe('onIterationEnd', { runId, agent: agent.name, iteration })
  }

  const limitStop = async (stop: LimitStop, output: string): Promise<Ending> => {
    await endIteration()
    trace.push({
      type: 'limit',
      startedAt: Date.now(),
      durationMs: 0,
      limit: stop.limit,
      reason: stop.reason,
    })
    await observe('onLimit', { runId, agent: agent.name, limit: stop.limit, reason: stop.reason })
    const stopReason = stop.limit === 'maxIterations' ? 'max_iterations' : 'usage_limit'
    return { stopReason, output, error: stop.reason }
  }

  const loop = async (): Promise<Ending> => {
    while (true) {
      await endIteration()
      if (signal.aborted) return { stopReason: 'aborted', output: '', error: 'The run was aborted.' }
      let next: Step = { kind: 'max-iterations' }
      let afterCall: LimitStop | undefined
      if (iterations < agent.maxIterations) {
        const beforeCall = usageLimitExceeded(
          agent.limits,
          { requests: requests + 1, usage, costUsd },
          'before',
        )
        if (beforeCall) return limitStop(beforeCall, lastAssistantText(messages))
        openIteration = iterations + 1
        await observe('onIterationStart', { runId, agent: agent.name, iteration: openIteration })
        const offered = agent.prepareTools
          ? await prepareTools(
              agent.tools,
              agent.prepareTools === 'per-tool' ? undefined : agent.prepareTools,
              { deps, runId, iteration: iterations, messages, usage },
            )
          : allTools
        toolScope.tools = offered.tools
        iterations++
        const request: CompletionRequest = { messages: [...messages], tools: offered.schemas }
        if (system !== undefined) request.system = system
        if (agent.settings) request.settings = agent.settings
        if (agent.outputJsonSchema && agent.provider.capabilities?.structuredOutput) {
          request.output = { name: 'output', schema: agent.outputJsonSchema }
        }
        const completion = await callModel(request, iterations, modelScope)
        requests++
        providerUsed = completion.providerId ?? agent.provider.id
        usage = addUsage(usage, completion.usage)
        const cost = costOf(
          providerUsed.split(':')[0] ?? '',
          completion.model,
          completion.usage,
          agent.prices,
        )
        costUsd = costUsd === null || cost === null ? null : costUsd + cost
        afterCall = usageLimitExceeded(
          agent.limits,
          { requests, usage, costUsd, model: completion.model },
          'after',
        )
        next = nextStep(completion)
      }

      switch (next.kind) {
        case 'final': {
          messages.push({ role: 'assistant', content: next.text })
          if (afterCall) return limitStop(afterCall, next.text)
          if (!agent.output && agent.outputValidators.length === 0)
            return { stopReason: 'final', output: next.text }
          const checked = await checkFinalOutput(
            next.text,
            { schema: agent.output, plainText: agent.outputPlainText },
            agent.outputValidators,
            { deps, runId, iteration: iterations, messages, usage },
          )
          if (checked.kind === 'accept')
            return { stopReason: 'final', output: next.text, parsed: checked.parsed }
          if (checked.kind === 'fail') return { stopReason: 'error', output: next.text, error: checked.error }
          if (outputRetries >= agent.outputRetries) {
            const what = agent.output ? 'Structured output' : 'Output validation'
            return {
              stopReason: 'error',
              output: next.text,
              error: `${what} failed after ${outputRetries} retries: ${checked.feedback}`,
            }
          }
          outputRetries++
          trace.push({
            type: 'structured_retry',
            startedAt: Date.now(),
            durationMs: 0,
            attempt: outputRetries,
            error: checked.feedback,
          })
          messages.push({ role: 'user', content: checked.feedback })
          break
        }
        case 'tool-calls': {
          messages.push({ role: 'assistant', content: next.text, toolCalls: next.calls })
          if (next.text) reasoning.push(next.text)
          if (afterCall) return limitStop(afterCall, next.text)
          const outcomes = await runToolCalls(next.calls, toolScope)
          let terminal: { output: string } | undefined
          let exhausted: string | undefined
          for (const outcome of outcomes) {
            const { record } = outcome
            toolCalls.push(record)
            messages.push({
              role: 'tool',
              toolCallId: record.id,
              name: record.name,
              content: outcome.content,
              ...(outcome.ok ? {} : { isError: true }),
            })
            if (outcome.ok) {
              failureStreaks.set(record.name, 0)
              const stops =
                outcome.tool?.terminal === true || agent.stopWhen?.(record, record.result) === true
              if (stops) terminal ??= { output: toolResultText(record.result) }
              continue
            }
            toolErrors++
            const streak = (failureStreaks.get(record.name) ?? 0) + 1
            failureStreaks.set(record.name, streak)
            const budget = outcome.tool?.maxRetries ?? agent.toolRetries
            if (outcome.tool && streak > budget) {
              exhausted ??= `Tool \`${record.name}\` failed ${streak} times in a row (retry budget ${budget}); last error: ${record.error ?? ''}`
            }
          }
          if (terminal) return { stopReason: 'terminal_tool', output: terminal.output }
          if (isAborted(signal)) return { stopReason: 'aborted', output: '', error: 'The run was aborted.' }
          if (exhausted) return { stopReason: 'error', output: '', error: exhausted }
          if (toolErrors > agent.maxToolErrors) {
            return {
              stopReason: 'error',
              output: '',
              error: `${toolErrors} tool calls failed in this run (maxToolErrors ${agent.maxToolErrors}).`,
            }
          }
          break
        }
        case 'max-iterations':
          return limitStop(
            {
              limit: 'maxIterations',
              reason: `Stopped after ${agent.maxIterations} model calls (maxIterations) without a final answer.`,
            },
            lastAssistantText(messages),
          )
      }
    }
  }

  let ending: Ending
  try {
    ending = await loop()
  } catch (thrown) {
    const error = toError(thrown)
    ending = signal.aborted
      ? { stopReason: 'aborted', output: '', error: `The run was aborted: ${error.message}` }
      : { stopReason: 'error', output: '', error: error.message }
    trace.push({ type: 'error', startedAt: Date.now(), durationMs: 0, error: ending.error ?? error.message })
  }
  const result: AgentResult<unknown> = {
    runId,
    output: ending.output,
    parsed: ending.parsed,
    toolCalls,
    messages,
    trace,
    usage,
    requests,
    costUsd: requests === 0 ? null : costUsd,
    iterations,
    stopReason: ending.stopReason,
    reasoning,
    providerUsed,
    durationMs: performance.now() - started,
  }
  if (ending.error !== undefined) result.error = ending.error
  await endIteration()
  await observe('onRunEnd', { runId, agent: agent.name, result })
  void emit?.({ type: 'result', result })
  return result
}

function toMessages(input: AgentInput): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  return input.map((turn) => ({ role: turn.role, content: turn.content }))
}

function systemPrompt(agent: ResolvedAgent, deps: unknown): string | undefined {
  const base = typeof agent.instructions === 'function' ? agent.instructions({ deps }) : agent.instructions
  if (!agent.outputJsonSchema || agent.provider.capabilities?.structuredOutput) return base
  const instruction = `Reply with only a JSON value that matches this JSON Schema:\n${JSON.stringify(agent.outputJsonSchema)}`
  return base ? `${base}\n\n${instruction}` : instruction
}

function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role === 'assistant' && message.content) return message.content
  }
  return ''
}

/** Reads the flag afresh: it can change while the loop awaits. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted
}
