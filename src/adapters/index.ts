import { ConfigError } from '../errors.ts'
import type { Message, Turn } from '../types.ts'
import type { Adapter, TranscriptParts } from './adapter.ts'
import { aiSdkAdapter, fromAiSdk, isAiSdkResult } from './ai-sdk.ts'
import { fromLangGraph, isLangGraphState, isRecursionLimit, langGraphAdapter } from './langgraph.ts'
import { fromMastra, isMastraOutput, mastraAdapter } from './mastra.ts'
import { fromAgentsError, fromOpenAIAgents, isAgentsRunResult, openAIAgentsAdapter } from './openai-agents.ts'
import { packageVersion } from './packages.ts'

/** Every adapter, most specific shape first: a Mastra agent also has the `generate()` the AI SDK adapter takes. */
export const adapters: readonly Adapter[] = [
  mastraAdapter,
  openAIAgentsAdapter,
  langGraphAdapter,
  aiSdkAdapter,
]

/** The adapter for a framework agent, or undefined when `value` is none the adapters know. */
export function adapterFor(value: unknown): Adapter | undefined {
  return adapters.find((adapter) => adapter.matches(value))
}

/**
 * Throws one line naming the supported range when the framework installed for `moduleFile` is a version the adapter
 * is not made for; says nothing when the version cannot be found (a bundled agent, say).
 */
export function checkFrameworkVersion(adapter: Adapter, moduleFile: string, where: string): void {
  const version = packageVersion(adapter.package, moduleFile)
  if (version === undefined || inRange(version, adapter.supported)) return
  const { from, below } = adapter.supported
  throw new ConfigError(
    `${where}: ${adapter.framework} ${version} (\`${adapter.package}\`) is not supported; evals supports \`${adapter.package}\` >=${from} <${below}: install a version in that range.`,
  )
}

function inRange(version: string, range: { from: string; below: string }): boolean {
  return compare(version, range.from) >= 0 && compare(version, range.below) < 0
}

/** Compares `major.minor.patch` numerically; a pre-release sorts with its release. */
function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(/[.+-]/).slice(0, 3).map(Number)) as [number[], number[]]
  for (let i = 0; i < 3; i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

/**
 * Maps a framework's result that a function target returned (`generateText(…)`, `run(agent, …)`,
 * `graph.invoke(…)`, `agent.generate(…)`) to transcript parts; undefined when it is none of them.
 */
export function mapFrameworkResult(
  value: unknown,
  input: string | Turn[],
  history: readonly Message[] | undefined,
): Promise<TranscriptParts> | undefined {
  const options = { input, ...(history && { history }) }
  if (isMastraOutput(value)) return fromMastra(value, options)
  if (isAiSdkResult(value)) return fromAiSdk(value, options)
  if (isAgentsRunResult(value)) return fromOpenAIAgents(value, options)
  if (isLangGraphState(value)) return fromLangGraph(value, options)
  return undefined
}

/**
 * A framework's error that a function target let through and that is the agent's own stop (the Agents SDK's
 * `MaxTurnsExceededError`, LangGraph's `GraphRecursionError`…) as transcript parts; undefined for any other error.
 */
export function mapFrameworkError(
  thrown: unknown,
  input: string | Turn[],
  history: readonly Message[] | undefined,
): Promise<TranscriptParts> | undefined {
  const options = { input, ...(history && { history }) }
  const agents = fromAgentsError(thrown, options)
  if (agents !== undefined) return agents
  if (!isRecursionLimit(thrown)) return undefined
  return Promise.resolve({
    costUsd: null,
    iterations: null,
    messages: [],
    output: '',
    source: 'adapter:langgraph',
    stopDetail: thrown.message,
    stopReason: 'max_iterations',
    toolCalls: null,
    usage: null,
  })
}
