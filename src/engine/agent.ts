import pLimit from 'p-limit'
import { z } from 'zod'
import { AbortError, ConfigError, toError } from '../errors.ts'
import { McpToolsets } from '../mcp/mcp-toolsets.ts'
import { withSpansWhenTraced } from './spans-when-traced.ts'
import { resolveModel } from '../providers/registry.ts'
import { checkResultLimit } from '../tools/result-limit.ts'
import { indexTools, tool, type AnyTool, type Tool } from '../tools/tool.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { AGENT_OPTION_KEYS, type AgentOptions, type HandoffTarget, type TeamAgent } from './options.ts'
import { agentToolOutput, toolNameOf, type AgentToolOptions } from './agents/agent-tool.ts'
import type { SubRunReport } from './agents/sub-run.ts'
import type { ApprovalDecision, RunState } from './approvals/approval.ts'
import { executeResume, type ResumeOptions } from './approvals/resume.ts'
import { resolveMemory } from './memory/apply.ts'
import {
  RUN_OPTION_KEYS,
  type AgentEvent,
  type AgentInput,
  type AgentResult,
  type RunOptions,
} from './agent-run.ts'
import { loadPriceTable } from '../util/price-table.ts'
import { resolveRetry } from './retry.ts'
import { resolveOutput } from './output-schema.ts'
import { cacheEpochsOf } from './tool-cache-epochs.ts'
import { EventChannel } from './event-channel.ts'
import { linkedSignal } from './linked-signal.ts'
import type { ErasedOutputValidator } from './final-output.ts'
import type { ErasedPrepareTools } from './prepare-tools.ts'
import type { HandoffRoute, ResolvedAgent } from './resolved-agent.ts'
import { executeRun } from './run.ts'
import { checkToolChoice } from './tool-choice.ts'

export interface BatchOptions<Deps> extends Omit<RunOptions<Deps>, 'history'> {
  /** runs at once @default 4 */
  concurrency?: number
}

const BATCH_OPTION_KEYS: Record<keyof BatchOptions<unknown>, true> = {
  ...(({ history: _, ...rest }) => rest)(RUN_OPTION_KEYS),
  concurrency: true,
}

/** An LLM agent: calls the model with tools until it gives a final answer. */
export class Agent<Output = undefined, Deps = unknown> implements AsyncDisposable {
  readonly name: string
  /** what the agent does, read by agents that hand over to it or call it as a tool */
  readonly description: string | undefined
  /** @internal marks an Agent for other agents' `handoffs` */
  readonly '~agent' = true as const
  #resolved: ResolvedAgent
  readonly #mcp: McpToolsets | undefined

  constructor(options: AgentOptions<Output, Deps>) {
    this.name = options.name ?? 'agent'
    this.description = options.description
    const maxIterations = options.maxIterations ?? 10
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new ConfigError(
        `Agent \`${this.name}\`: \`maxIterations\` must be a positive integer, got ${maxIterations}.`,
      )
    }
    rejectUnknownOptions(this.name, options)
    checkResultLimit(`Agent \`${this.name}\``, 'maxToolResultChars', options.maxToolResultChars)
    const output = resolveOutput(this.name, options.output)
    const handoffs = handoffRoutes(this.name, options.handoffs ?? [], (member) => member.#forRun())
    const tools = indexTools([...(options.tools ?? []), ...handoffs.tools])
    const perTool = [...tools.values()].some((candidate) => candidate.prepare !== undefined)
    // a named tool may be an MCP server's, known once the servers have started
    if (!options.mcp?.length) checkToolChoice(`Agent \`${this.name}\``, options.toolChoice, tools.keys())
    this.#resolved = {
      name: this.name,
      provider: resolveModel(options.model),
      instructions: options.instructions as ResolvedAgent['instructions'],
      tools,
      prepareTools:
        (options.prepareTools as ErasedPrepareTools | undefined) ?? (perTool ? 'per-tool' : undefined),
      toolChoice: options.toolChoice,
      resetToolChoice: options.resetToolChoice ?? true,
      maxIterations,
      parallelTools: options.parallelTools ?? true,
      toolConcurrency: options.toolConcurrency ?? 10,
      toolTimeoutMs: options.toolTimeoutMs ?? 30_000,
      toolRetries: options.toolRetries ?? 3,
      maxToolErrors: options.maxToolErrors ?? 20,
      maxToolResultChars: options.maxToolResultChars,
      stopWhen: options.stopWhen,
      policy: options.policy,
      confirm: options.confirm,
      confirmTimeoutMs: options.confirmTimeoutMs ?? 60_000,
      output: output.schema,
      outputPlainText: output.plainText,
      outputJsonSchema: output.jsonSchema,
      outputValidators: (options.outputValidators ?? []) as readonly ErasedOutputValidator[],
      outputRetries: options.outputRetries ?? 2,
      settings: options.settings,
      retry: resolveRetry(options.retry),
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      limits: options.limits,
      cache: options.cache,
      cachesTools: [...tools.values()].some((candidate) => candidate.cache !== undefined),
      cacheEpochs: cacheEpochsOf(this.name, tools, (options.mcp?.length ?? 0) > 0),
      observers: options.observers ?? [],
      awaitObservers: options.awaitObservers ?? false,
      deps: options.deps,
      prices: options.prices,
      startupFailures: [],
      description: options.description,
      mayReview:
        options.policy !== undefined ||
        [...tools.values()].some(
          (candidate) => candidate.needsApproval !== undefined && candidate.needsApproval !== false,
        ),
      memory: resolveMemory(this.name, options.memory),
      guardrails: options.guardrails,
      sessions: options.sessions,
      handoffs: handoffs.routes,
      team:
        handoffs.routes.size > 0 ||
        [...tools.values()].some((candidate) => candidate['~agent'] !== undefined),
    }
    this.#mcp = options.mcp?.length ? new McpToolsets(options.mcp, this.#resolved.tools) : undefined
  }

  /** id of the model provider, e.g. `openai:gpt-4.1-mini` */
  get providerId(): string {
    return this.#resolved.provider.id
  }

  /** Runs the loop to a final answer. Model and tool failures end the run with a `stopReason`; it does not throw. */
  async run(input: AgentInput, options: RunOptions<Deps> = {}): Promise<AgentResult<Output>> {
    rejectUnknownKeys(`Agent \`${this.name}\`: unknown run option`, RUN_OPTION_KEYS, options)
    const resolved = await this.#prepare()
    checkRunToolChoice(resolved, options)
    const link = options.parent?.['~run']
    const startedAt = Date.now()
    const result = await executeRun(await withSpansWhenTraced(resolved, link?.spanParent()), input, options)
    link?.adopt(reportOf(this.name, result, startedAt))
    return result as AgentResult<Output>
  }

  /**
   * Goes on with a run that stopped with `stopReason: 'interrupted'`: the approved calls run, the model is told why
   * the rejected ones did not, and the loop continues. `state` may come from another process (`JSON.parse` of
   * `result.state`); every pending call needs one decision. The result covers the whole run.
   */
  async resume(
    state: RunState,
    decisions: readonly ApprovalDecision[],
    options: ResumeOptions<Deps> = {},
  ): Promise<AgentResult<Output>> {
    const resolved = await this.#prepare()
    return (await executeResume(
      await withSpansWhenTraced(resolved),
      state,
      decisions,
      options,
    )) as AgentResult<Output>
  }

  /**
   * The agent as a tool of another agent: the model passes it an `input`, the agent runs, and its output is the tool
   * result. Its usage and cost join the calling run's (per agent in `usageByAgent`), its trace is an `agent_run` step
   * there, and its spans are children of the tool call's span.
   */
  asTool(options: AgentToolOptions = {}): Tool<z.ZodObject<{ input: z.ZodString }>, string> {
    const agentTool = tool({
      name: options.name ?? toolNameOf(this.name),
      description: options.description ?? this.description ?? `Ask the agent \`${this.name}\`.`,
      parameters: z.object({ input: z.string().describe('what to ask the agent') }),
      timeoutMs: options.timeoutMs ?? 300_000,
      ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
      execute: async ({ input }, context) =>
        agentToolOutput(this.name, await this.run(input, { signal: context.signal, parent: context })),
    })
    return { ...agentTool, '~agent': this.name }
  }

  /** The agent's settings for a run, ready: for agents that hand over to this one. */
  #forRun(): Promise<ResolvedAgent> {
    return this.#prepare()
  }

  /**
   * Like `run`, yielding text deltas and tool events as they happen; the last event is the result. Tool events wait
   * for the reader, so leaving the loop (break, return, throw) aborts the run before any further tool call or model
   * call, and the loop exits once the run has ended.
   */
  async *stream(
    input: AgentInput,
    options: RunOptions<Deps> = {},
  ): AsyncGenerator<AgentEvent<Output>, AgentResult<Output>> {
    rejectUnknownKeys(`Agent \`${this.name}\`: unknown run option`, RUN_OPTION_KEYS, options)
    const resolved = await this.#prepare()
    checkRunToolChoice(resolved, options)
    const channel = new EventChannel<AgentEvent<Output>>()
    const controller = new AbortController()
    const outer = options.signal
    const forward = (): void => {
      controller.abort(outer?.reason)
    }
    if (outer?.aborted) forward()
    else outer?.addEventListener('abort', forward, { once: true })
    const run = { finished: false }
    const done = executeRun(
      await withSpansWhenTraced(resolved),
      input,
      { ...options, signal: controller.signal },
      (event) => channel.push(event as AgentEvent<Output>),
    ).then(
      (result) => {
        run.finished = true
        channel.end()
        return result as AgentResult<Output>
      },
      (error: unknown) => {
        run.finished = true
        const failure = toError(error)
        channel.fail(failure)
        throw failure
      },
    )
    // the channel rethrows the failure; without this `done` would be an unhandled rejection
    done.catch(() => undefined)
    try {
      yield* channel
      return await done
    } finally {
      outer?.removeEventListener('abort', forward)
      if (!run.finished) controller.abort(new AbortError('the stream was closed before the run ended'))
      channel.cancel()
      await done.catch(() => undefined)
    }
  }

  /** Runs many inputs; results come back in input order, and one failing input never affects another. */
  async batch(
    inputs: readonly AgentInput[],
    options: BatchOptions<Deps> = {},
  ): Promise<AgentResult<Output>[]> {
    rejectUnknownKeys(`Agent \`${this.name}\`: unknown batch option`, BATCH_OPTION_KEYS, options)
    checkRunToolChoice(await this.#prepare(), options)
    const { concurrency = 4, ...runOptions } = options
    const limit = pLimit(concurrency)
    // the runs listen to one signal of the batch's own, not each to the caller's
    const { signal, unlink } = linkedSignal(options.signal)
    try {
      return await Promise.all(
        inputs.map((input) =>
          limit(async () => {
            try {
              return await this.run(input, { ...runOptions, signal })
            } catch (error) {
              return failedResult<Output>(this.name, this.#resolved.provider.id, toError(error))
            }
          }),
        ),
      )
    } finally {
      unlink()
    }
  }

  /**
   * Starts the agent's MCP servers now rather than on the first run; throws a ConfigError naming each server that
   * could not start. A run does not need it: there, a server that cannot start leaves the others working.
   */
  async connect(): Promise<void> {
    await this.#mcp?.connect()
  }

  /** Stops the agent's MCP servers, those still starting included; a later run starts them again. */
  async close(): Promise<void> {
    await this.#mcp?.close()
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }

  /** The agent as the next run sees it: prices loaded, MCP servers started and their tools joined. */
  async #prepare(): Promise<ResolvedAgent> {
    const summarizer = this.#resolved.memory?.summarizer?.provider.id
    for (const id of summarizer === undefined
      ? [this.#resolved.provider.id]
      : [this.#resolved.provider.id, summarizer]) {
      const vendor = id.split(':')[0]
      if (vendor !== 'local' && vendor !== 'scripted') await loadPriceTable()
    }
    if (!this.#mcp) return this.#resolved
    const { tools, failures } = await this.#mcp.tools()
    if (tools !== this.#resolved.tools) {
      this.#resolved = { ...this.#resolved, tools }
      if (failures.length === 0)
        checkToolChoice(`Agent \`${this.name}\``, this.#resolved.toolChoice, tools.keys())
    }
    if (failures.length === 0) return this.#resolved
    const startupFailures = failures.map((failure) => `${failure} Its tools are not offered in this run.`)
    return { ...this.#resolved, startupFailures }
  }
}

/**
 * The routes of an agent's handoffs and their tools: `transfer_to_<name>`, described by the target's `description`.
 * The target is resolved when the handoff happens, so agents may hand over to each other in a circle.
 */
function isAgent(value: unknown): value is Agent {
  return value instanceof Agent
}

function handoffRoutes(
  agent: string,
  targets: readonly HandoffTarget[],
  forRun: (member: Agent) => Promise<ResolvedAgent>,
): { routes: Map<string, HandoffRoute>; tools: AnyTool[] } {
  const routes = new Map<string, HandoffRoute>()
  const tools: AnyTool[] = []
  for (const [index, target] of targets.entries()) {
    const member: TeamAgent = '~agent' in target ? target : target.agent
    if (!isAgent(member))
      throw new ConfigError(
        `Agent \`${agent}\`: \`handoffs[${index}]\` must be an Agent or { agent: Agent, toolName?, description? }.`,
      )
    const named: { toolName?: string; description?: string } = '~agent' in target ? {} : target
    const toolName = named.toolName ?? toolNameOf(`transfer_to_${member.name}`)
    const about = named.description ?? member.description
    routes.set(toolName, { agent: member.name, resolve: () => forRun(member) })
    tools.push(
      tool({
        name: toolName,
        description: `Hand the conversation to the agent \`${member.name}\`${about ? `: ${about}` : '.'}`,
        parameters: z.object({}),
        execute: () => `Transferred to ${member.name}.`,
      }),
    )
  }
  return { routes, tools }
}

/** What a finished run of an agent called from a tool hands to the calling run. */
function reportOf(agent: string, result: AgentResult<unknown>, startedAt: number): SubRunReport {
  const report: SubRunReport = {
    agent,
    runId: result.runId,
    stopReason: result.stopReason,
    usage: result.usage,
    costUsd: result.costUsd,
    requests: result.requests,
    trace: result.trace,
    startedAt,
    durationMs: result.durationMs,
  }
  if (result.usageByAgent) report.usageByAgent = result.usageByAgent
  return report
}

/** A run's own `toolChoice` must name a tool the agent has now. */
function checkRunToolChoice(agent: ResolvedAgent, options: { toolChoice?: unknown }): void {
  checkToolChoice(`Agent \`${agent.name}\`: run option`, options.toolChoice, agent.tools.keys())
}

function rejectUnknownOptions(agent: string, options: object): void {
  const known = Object.keys(AGENT_OPTION_KEYS)
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(AGENT_OPTION_KEYS, key)) continue
    const suggestion = didYouMean(key, known)
    throw new ConfigError(
      `Agent \`${agent}\`: unknown option \`${key}\`.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Known options: ${known.join(', ')}.`,
    )
  }
}

function rejectUnknownKeys(what: string, keys: Record<string, true>, options: object): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(keys, key)) continue
    const suggestion = didYouMean(key, Object.keys(keys))
    const hint = suggestion
      ? ` Did you mean \`${suggestion}\`?`
      : ` Known options: ${Object.keys(keys).join(', ')}.`
    throw new ConfigError(`${what} \`${key}\`.${hint}`)
  }
}

function failedResult<Output>(agent: string, providerId: string, error: Error): AgentResult<Output> {
  return {
    runId: '',
    output: '',
    parsed: undefined,
    toolCalls: [],
    messages: [],
    trace: [{ type: 'error', startedAt: Date.now(), durationMs: 0, error: error.message }],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    requests: 0,
    costUsd: null,
    iterations: 0,
    stopReason: 'error',
    reasoning: [],
    providerUsed: providerId,
    error: error.message,
    durationMs: 0,
    source: 'engine',
    lastAgent: agent,
  }
}
