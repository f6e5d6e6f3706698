import pLimit from 'p-limit'
import { z } from 'zod'
import { AbortError, ConfigError, toError } from '../errors.ts'
import { McpToolsets } from '../mcp/mcp-toolsets.ts'
import { withSpans } from './spans-observer.ts'
import { resolveModel } from '../providers/registry.ts'
import { indexTools } from '../tools/tool.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { AGENT_OPTION_KEYS, type AgentOptions } from './options.ts'
import { type AgentEvent, type AgentInput, type AgentResult, type RunOptions } from './agent-run.ts'
import { loadPrices } from './pricing.ts'
import { resolveRetry } from './retry.ts'
import { EventChannel } from './event-channel.ts'
import type { ErasedOutputValidator } from './final-output.ts'
import type { ErasedPrepareTools } from './prepare-tools.ts'
import type { ResolvedAgent } from './resolved-agent.ts'
import { executeRun } from './run.ts'

export interface BatchOptions<Deps> extends Omit<RunOptions<Deps>, 'history'> {
  /** runs at once @default 4 */
  concurrency?: number
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
    const output = options.output as z.ZodType | undefined
    const tools = indexTools(options.tools ?? [])
    const perTool = [...tools.values()].some((candidate) => candidate.prepare !== undefined)
    const outputPlainText = output !== undefined && jsonSchemaOf(output, 'input').type === 'string'
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
      output,
      outputPlainText,
      outputJsonSchema: output && !outputPlainText ? jsonSchemaOf(output, 'output') : undefined,
      outputValidators: (options.outputValidators ?? []) as readonly ErasedOutputValidator[],
      outputRetries: options.outputRetries ?? 2,
      settings: options.settings,
      retry: resolveRetry(options.retry),
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      limits: options.limits,
      cache: options.cache,
      cachesTools: [...tools.values()].some((candidate) => candidate.cache !== undefined),
      observers: options.observers ?? [],
      awaitObservers: options.awaitObservers ?? false,
      deps: options.deps,
      prices: options.prices,
    }
    this.#mcp = options.mcp?.length ? new McpToolsets(options.mcp, this.#resolved.tools) : undefined
  }

  /** id of the model provider, e.g. `openai:gpt-4.1-mini` */
  get providerId(): string {
    return this.#resolved.provider.id
  }

  /** Runs the loop to a final answer. Model and tool failures end the run with a `stopReason`; it does not throw. */
  async run(input: AgentInput, options: RunOptions<Deps> = {}): Promise<AgentResult<Output>> {
    await this.#prepare()
    return (await executeRun(withSpans(this.#resolved), input, options)) as AgentResult<Output>
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
    await this.#prepare()
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
      withSpans(this.#resolved),
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
    const { concurrency = 4, ...runOptions } = options
    const limit = pLimit(concurrency)
    return Promise.all(
      inputs.map((input) =>
        limit(async () => {
          try {
            return await this.run(input, runOptions)
          } catch (error) {
            return failedResult<Output>(this.#resolved.provider.id, toError(error))
          }
        }),
      ),
    )
  }

  /** Stops the agent's MCP servers; a later run starts them again. */
  async close(): Promise<void> {
    await this.#mcp?.close()
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }

  async #prepare(): Promise<void> {
    const vendor = this.#resolved.provider.id.split(':')[0]
    if (vendor !== 'local' && vendor !== 'scripted') await loadPrices()
    if (this.#mcp) {
      const tools = await this.#mcp.tools()
      if (tools !== this.#resolved.tools) this.#resolved = { ...this.#resolved, tools }
    }
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

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>
  delete json.$schema
  return json
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
    source: 'engine',
  }
}
