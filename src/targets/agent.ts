import type { ApprovalDecision, PendingApproval, RunState } from '../engine/approvals/approval.ts'
import { ConfigError, EvalsError } from '../errors.ts'
import type { McpServerOptions } from '../mcp/options.ts'
import { resolve } from 'node:path'
import type { Message, Transcript, Turn } from '../types.ts'
import { displayPath, exportNames, importUserModule } from '../util/user-module.ts'
import { wrapFunction, type TargetFunction } from './function.ts'
import { scriptedDecisions } from './approvals.ts'
import type { Target } from './target.ts'
import { toTranscript } from './to-transcript.ts'

/**
 * What an Agent looks like to a target: anything with a `run(input, { signal, trial, history })` method; `resume`
 * for cases with scripted `approvals:`.
 */
export interface RunnableAgent {
  run(input: string | readonly Turn[], options: RunnableOptions): Promise<unknown>
  resume?(
    state: RunState,
    decisions: readonly ApprovalDecision[],
    options: { signal?: AbortSignal; trial?: number },
  ): Promise<unknown>
}

interface RunnableOptions {
  signal?: AbortSignal
  trial?: number
  /** the conversation's earlier messages, tool calls and results included; the input is then the new message */
  history?: readonly Message[]
}

/** Interrupted runs resumed in one case at most; a model that keeps asking ends interrupted. */
const MAX_RESUMES = 20

export interface AgentTargetOptions {
  /** path of the module, relative to `baseDir` */
  file: string
  baseDir: string
  /** the suite's model (after `--model`); passed to a `createAgent` factory */
  model?: string
  /** names the config entry in errors, e.g. `cases/support.yaml: target.agent` */
  label?: string
  /** the case file's MCP servers; passed to a `createAgent` factory */
  mcp?: McpServerOptions[]
}

/**
 * Loads an agent module. It may export `createAgent({ model })` returning an Agent (used first, so the suite's
 * `model:` and `--model` apply), or default-export an Agent (anything with `run`) or a function
 * `(input, ctx) => string | Transcript`.
 */
export async function agentTarget(options: AgentTargetOptions): Promise<Target> {
  const label = options.label ?? 'target.agent'
  const file = displayPath(options.file)
  const id = `agent:${file}`
  const modulePath = resolve(options.baseDir, options.file)
  const module = await importUserModule(options.file, options.baseDir, label)
  const factory = module.createAgent
  if (typeof factory === 'function') {
    const agent = await createAgent(
      factory as AgentFactory,
      options,
      `${label}: \`createAgent\` in \`${file}\``,
    )
    const framework = await frameworkTarget(id, agent, modulePath, `${label}: \`createAgent\` in \`${file}\``)
    if (framework) return framework
    if (!isRunnable(agent)) {
      throw new ConfigError(
        `${label}: \`createAgent\` in \`${file}\` must return an Agent (an object with a \`run\` method) or an agent of a supported framework (the AI SDK, the OpenAI Agents SDK, LangGraph, Mastra).`,
      )
    }
    const target = agentAsTarget(id, agent, label)
    // the factory's agent is ours to stop: its MCP servers would keep the process alive
    const close = (agent as { close?: unknown }).close
    if (typeof close === 'function') target.close = async () => close.call(agent) as Promise<void>
    await connect(agent, `${label}: \`createAgent\` in \`${file}\``)
    return target
  }
  if (options.mcp !== undefined) {
    throw new ConfigError(
      `${label}: \`mcp\` servers are passed to \`createAgent({ model, mcp })\`, and \`${file}\` exports no \`createAgent\`; ` +
        'export one that passes `mcp` on to `new Agent({ …, mcp })`.',
    )
  }
  const exported = module.default
  const framework = await frameworkTarget(id, exported, modulePath, `${label}: \`${file}\``)
  if (framework) return framework
  if (isRunnable(exported)) {
    const target = agentAsTarget(id, exported, label)
    await connect(exported, `${label}: \`${file}\``)
    return target
  }
  if (typeof exported === 'function') {
    // the function gets the model as ctx.model: check it resolves (API key set) before any case runs
    if (options.model !== undefined) {
      // imported here: the registry loads the provider SDKs, which function and agent-instance targets never need
      const { resolveModel } = await import('../providers/registry.ts')
      resolveModel(options.model)
    }
    return wrapFunction(id, exported as TargetFunction, `${label}: \`${file}\``)
  }
  throw new ConfigError(
    `${label}: \`${file}\` must default-export an Agent, an agent of a supported framework (the AI SDK, the OpenAI Agents SDK, LangGraph, Mastra) or a function \`(input, ctx) => string | Transcript\`, ` +
      `or export \`createAgent({ model })\`; it exports ${exportNames(module)}.`,
  )
}

/**
 * A target for an agent of another framework, run through its adapter (loaded only now); undefined when `value`
 * is none of theirs. An installed framework version the adapter does not support is a ConfigError.
 */
async function frameworkTarget(
  id: string,
  value: unknown,
  modulePath: string,
  where: string,
): Promise<Target | undefined> {
  if (typeof value !== 'object' || value === null) return undefined
  const { adapterFor, checkFrameworkVersion } = await import('../adapters/index.ts')
  const adapter = adapterFor(value)
  if (!adapter) return undefined
  checkFrameworkVersion(adapter, modulePath, where)
  const { importPackageFrom } = await import('../adapters/packages.ts')
  return {
    id,
    async run(input, context): Promise<Transcript> {
      const started = performance.now()
      const parts = await adapter.run(value, {
        input,
        history: context.history,
        signal: context.signal,
        importPackage: (name) => importPackageFrom(name, modulePath),
      })
      return toTranscript(parts, input, performance.now() - started) as Transcript
    },
  }
}

type AgentFactory = (options: { model?: string; mcp?: McpServerOptions[] }) => unknown

/** Calls the module's factory; a known error it throws (an unknown model, say) is prefixed with where it came from. */
async function createAgent(
  factory: AgentFactory,
  options: AgentTargetOptions,
  where: string,
): Promise<unknown> {
  try {
    return await factory({
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    })
  } catch (error) {
    if (!(error instanceof EvalsError)) throw error
    const given =
      options.model === undefined ? '' : ` (model \`${options.model}\`, from \`model:\` or \`--model\`)`
    throw new ConfigError(`${where}${given}: ${error.message}`, { cause: error })
  }
}

/**
 * Starts the agent's MCP servers before any case runs, so a server that cannot start stops the run with a
 * ConfigError (exit 2) instead of failing every case that needed its tools.
 */
async function connect(agent: RunnableAgent, where: string): Promise<void> {
  const { connect: start, close } = agent as { connect?: unknown; close?: unknown }
  if (typeof start !== 'function') return
  try {
    await (start.call(agent) as Promise<void>)
  } catch (error) {
    // the servers that did start would keep the process alive
    if (typeof close === 'function') await (close.call(agent) as Promise<void>)
    if (!(error instanceof EvalsError)) throw error
    throw new ConfigError(`${where}: ${error.message}`, { cause: error })
  }
}

/** In a conversation the agent continues the earlier turns' messages, tool calls included, with the new message. */
function agentAsTarget(id: string, agent: RunnableAgent, label: string): Target {
  const target = wrapFunction(
    id,
    async (input, context) => {
      const options = { signal: context.signal, trial: context.trial }
      const last = typeof input === 'string' ? undefined : input.at(-1)
      let result =
        context.history === undefined || last?.role !== 'user'
          ? await agent.run(input, options)
          : await agent.run(last.content, { ...options, history: context.history })
      for (let round = 0; round < MAX_RESUMES && context.approvals && isInterrupted(result); round++) {
        const decisions = scriptedDecisions(result.interruptions, context.approvals)
        if (!decisions) break
        if (!agent.resume)
          throw new ConfigError(
            `${label}: the case has \`approvals:\`, and the agent has no \`resume\` method to continue with them.`,
          )
        result = await agent.resume(result.state, decisions, options)
      }
      return result
    },
    label,
  )
  return Object.assign(target, { pacedByEngine: true })
}

function isInterrupted(result: unknown): result is { interruptions: PendingApproval[]; state: RunState } {
  const value = result as { stopReason?: unknown; interruptions?: unknown } | null
  return value?.stopReason === 'interrupted' && Array.isArray(value.interruptions)
}

function isRunnable(value: unknown): value is RunnableAgent {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function'
}
