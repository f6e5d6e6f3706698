import pLimit from 'p-limit'
import { AbortError, ConfigError, toError } from '../errors.ts'
import { McpToolsets } from '../mcp/mcp-toolsets.ts'
import { withSpans } from './spans-observer.ts'
import { resolveModel } from '../providers/registry.ts'
import { indexTools } from '../tools/tool.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { AGENT_OPTION_KEYS, type AgentOptions } from './options.ts'
import {
  RUN_OPTION_KEYS,
  type AgentEvent,
  type AgentInput,
  type AgentResult,
  type RunOptions,
} from './agent-run.ts'
import { loadPrices } from './pricing.ts'
import { resolveRetry } from './retry.ts'
import { resolveOutput } from './output-schema.ts'
import { cacheEpochsOf } from './tool-cache-epochs.ts'
import { EventChannel } from './event-channel.ts'
import { linkedSignal } from './linked-signal.ts'
import type { ErasedOutputValidator } from './final-output.ts'
import type { ErasedPrepareTools } from './prepare-tools.ts'
import type { ResolvedAgent } from './resolved-agent.ts'
import { executeRun } from './run.ts'

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
  #resolved: ResolvedAgent
  readonly #mcp: McpToolsets | undefined

  constructor(options: AgentOptions<Output, Deps>) {
    this.name = options.name ?? 'agent'
    const maxIterations = options.maxIterations ?? 10
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new ConfigError(
        `Agent \`${this.name}\`: \`maxIterations\` must be a positive integer, got ${maxIterations}.`,
      )
    }
    rejectUnknownOptions(this.name, options)
    const output = resolveOutput(this.name, options.output)
    const tools = indexTools(options.tools ?? [])
    const perTool = [...tools.values()].some((candidate) => candidate.prepare !== undefined)
    this.#resolved = {
      name: this.name,
      provider: resolveModel(options.model),
      instructions: options.instructions as ResolvedAgent['instructions'],
      tools,
      prepareTools:
        (options.prepareTools as ErasedPrepareTools | undefined) ?? (perTool ? 'per-tool' : undefined),
      maxIterations,
      parallelTools: options.parallelTools ?? true,
      toolConcurrency: options.toolConcurrency ?? 10,
      toolTimeoutMs: options.toolTimeoutMs ?? 30_000,
      toolRetries: options.toolRetries ?? 3,
      maxToolErrors: options.maxToolErrors ?? 20,
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
    return (await executeRun(withSpans(resolved), input, options)) as AgentResult<Output>
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
    const channel = new EventChannel<AgentEvent<Output>>()
    const controller = new AbortController()
    const outer = options.signal
    const forward = (): void => {
      controller.abort(outer?.reason)
    }
    if (outer?.aborted) forward()
    else outer?.addEventListener('abort', forward, { once: true })
    const run = { finished: false }
    const done = executeRun(withSpans(resolved), input, { ...options, signal: controller.signal }, (event) =>
      channel.push(event as AgentEvent<Output>),
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
              return failedResult<Output>(this.#resolved.provider.id, toError(error))
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
    const vendor = this.#resolved.provider.id.split(':')[0]
    if (vendor !== 'local' && vendor !== 'scripted') await loadPrices()
    if (!this.#mcp) return this.#resolved
    const { tools, failures } = await this.#mcp.tools()
    if (tools !== this.#resolved.tools) this.#resolved = { ...this.#resolved, tools }
    if (failures.length === 0) return this.#resolved
    const startupFailures = failures.map((failure) => `${failure} Its tools are not offered in this run.`)
    return { ...this.#resolved, startupFailures }
  }
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

function failedResult<Output>(providerId: string, error: Error): AgentResult<Output> {
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
  }
}
