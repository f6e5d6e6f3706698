import type { RunOptions } from './agent-run.ts'
import { adoptSubRun } from './agents/adopt.ts'
import { MemoryCache } from './cache.ts'
import { endingOfThrown, type Ending } from './endings.ts'
import type { EmitEvent } from './event-channel.ts'
import type { AgentLoop, LoopState } from './loop-state.ts'
import type { ResolvedAgent } from './resolved-agent.ts'
import { takeTurn } from './turn.ts'

/** Sets up the scopes of the run's model and tool calls, and its system prompt (which can call `instructions`). */
export function openLoop(state: LoopState, options: RunOptions, emit: EmitEvent | undefined): AgentLoop {
  const { agent, runId, signal, deps, trace } = state
  const shared = { runId, agent: agent.name, signal, observers: agent.observers, trace, emit }
  const loop: AgentLoop = {
    state,
    modelScope: {
      ...shared,
      provider: agent.provider,
      awaitObservers: agent.awaitObservers,
      retry: agent.retry,
      requestTimeoutMs: agent.requestTimeoutMs,
      cache: agent.cache,
      trial: options.trial ?? 0,
      partialOutput: agent.outputJsonSchema !== undefined && !agent.outputPlainText,
      price: (completion) => state.priceOf(completion),
    },
    toolScope: {
      ...shared,
      tools: agent.tools,
      deps,
      awaitObservers: agent.awaitObservers,
      policy: agent.policy,
      confirm: agent.confirm,
      confirmTimeoutMs: agent.confirmTimeoutMs,
      defaultTimeoutMs: agent.toolTimeoutMs,
      maxResultChars: agent.maxToolResultChars,
      parallel: agent.parallelTools,
      concurrency: agent.toolConcurrency,
      toolCache: agent.cache ?? (agent.cachesTools ? new MemoryCache() : undefined),
      cacheEpochs: agent.cacheEpochs,
      cacheScope: deps === agent.deps ? undefined : runId,
      adopt: (callId, report) => {
        adoptSubRun(state, callId, report)
      },
      spanOfCall: agent.spanOfCall,
    },
    system: systemPrompt(agent, deps),
    allTools: { schemas: [...agent.tools.values()].map((tool) => tool.schema), tools: agent.tools },
    reopen: () => {
      const next = openLoop(state, options, emit)
      loop.modelScope = next.modelScope
      loop.toolScope = next.toolScope
      loop.system = next.system
      loop.allTools = next.allTools
    },
  }
  return loop
}

/**
 * Takes turns until one ends the run; a throw (say, a model call that failed for good) ends it too. `first` runs
 * before the first turn and may end the run (input guardrails, the calls a resumed run picks up).
 */
export async function runLoop(loop: AgentLoop, first?: () => Promise<Ending | undefined>): Promise<Ending> {
  try {
    const early = first && (await first())
    if (early) return early
    while (true) {
      const ending = await takeTurn(loop)
      if (ending) return ending
    }
  } catch (thrown) {
    return endingOfThrown(loop.state, thrown)
  }
}

function systemPrompt(agent: ResolvedAgent, deps: unknown): string | undefined {
  const base = typeof agent.instructions === 'function' ? agent.instructions({ deps }) : agent.instructions
  if (!agent.outputJsonSchema || agent.provider.capabilities?.structuredOutput) return base
  const instruction = `Reply with only a JSON value that matches this JSON Schema:\n${JSON.stringify(agent.outputJsonSchema)}`
  return base ? `${base}\n\n${instruction}` : instruction
}
