import { randomUUID } from 'node:crypto'
import {
  emptyUsage,
  type IterationReasoning,
  type Message,
  type RunContext,
  type ToolCallRecord,
  type TraceStep,
  type Usage,
} from '../types.ts'
import type { AgentInput, RunOptions } from './agent-run.ts'
import type { Completion, ToolChoice } from '../providers/provider.ts'
import { inputMessages } from './input-messages.ts'
import { linkedSignal } from './linked-signal.ts'
import { reasoningText } from './model-call.ts'
import { costOf } from './pricing.ts'
import { notify } from './notify.ts'
import type { Observer } from './observer.ts'
import type { ModelCallScope } from './model-call-scope.ts'
import type { OfferedTools } from './prepare-tools.ts'
import type { ResolvedAgent } from './resolved-agent.ts'
import type { ToolRunScope } from './tool-scope.ts'
import type { AgentUsage } from './agents/agent-usage.ts'
import type { MemoryView } from './memory/memory.ts'

type HookEvent<Hook extends keyof Observer> = Parameters<NonNullable<Observer[Hook]>>[0]

/** What one agent run holds while its loop turns: the conversation, what it produced and spent, its counters. */
export class LoopState {
  readonly runId: string
  readonly startedAt: number
  /** name of the agent that started the run */
  readonly rootAgent: string
  /** the agent answering: the one that started the run, or the one a handoff moved the conversation to */
  agent: ResolvedAgent
  /** the run's own signal, following the caller's: every model and tool call listens to it, so it takes any number */
  readonly signal: AbortSignal
  readonly #unlink: () => void
  readonly #prices = new WeakMap<Completion, number | null>()
  readonly deps: unknown
  /** the whole conversation, history included */
  readonly messages: Message[]
  readonly trace: TraceStep[] = []
  readonly toolCalls: ToolCallRecord[] = []
  readonly reasoning: IterationReasoning[] = []
  usage: Usage = emptyUsage()
  /** null once a reply's price is unknown */
  costUsd: number | null = 0
  requests = 0
  /** model calls made in the loop */
  iterations = 0
  providerUsed: string
  /** tool calls that failed in this run */
  toolErrors = 0
  /** per tool name: how many replies in a row its calls all failed */
  readonly failureStreaks = new Map<string, number>()
  outputRetries = 0
  /** the run's own `toolChoice`, over the agent's */
  readonly toolChoice: ToolChoice | undefined
  /** index of the run's first new message (after `history`) */
  readonly inputFrom: number
  /** what the agent's memory sends of the conversation; set once the memory first looks */
  memory: MemoryView | undefined
  /** per agent, what each spent; kept only in runs where several agents can take part */
  usageByAgent: Map<string, AgentUsage> | undefined
  /** the first message not yet marked with the agent that wrote it (runs with several agents) */
  unstampedFrom: number
  /** the iteration whose model call was made and whose end is not yet observed; 0 when none */
  #openIteration = 0

  constructor(
    agent: ResolvedAgent,
    input: AgentInput,
    options: RunOptions,
    resumed?: { runId: string; elapsedMs: number; rootAgent: string },
  ) {
    this.runId = resumed?.runId ?? randomUUID()
    this.rootAgent = resumed?.rootAgent ?? agent.name
    this.startedAt = performance.now() - (resumed?.elapsedMs ?? 0)
    this.agent = agent
    const linked = linkedSignal(options.signal)
    this.signal = linked.signal
    this.#unlink = linked.unlink
    this.deps = options.deps ?? agent.deps
    this.toolChoice = options.toolChoice
    this.inputFrom = options.history?.length ?? 0
    this.messages = [...(options.history ?? []), ...inputMessages(input)]
    this.providerUsed = agent.provider.id
    this.usageByAgent = agent.team ? new Map() : undefined
    this.unstampedFrom = this.inputFrom
    for (const error of agent.startupFailures) {
      this.trace.push({ type: 'error', startedAt: Date.now(), durationMs: 0, error })
    }
  }

  /** The USD cost of a reply (null when the model's price is unknown), worked out once per reply. */
  priceOf(completion: Completion): number | null {
    let cost = this.#prices.get(completion)
    if (cost === undefined) {
      const vendor = (completion.providerId ?? this.agent.provider.id).split(':')[0] ?? ''
      cost = costOf(vendor, completion.model, completion.usage, this.agent.prices)
      this.#prices.set(completion, cost)
    }
    return cost
  }

  /** Notes what the model showed of its thinking in the reply of the current iteration. */
  noteReasoning(completion: Completion): void {
    const { text, toolCalls } = completion.message
    this.reasoning.push({
      iteration: this.iterations,
      text: toolCalls.length > 0 ? text : '',
      thinking: reasoningText(completion),
    })
  }

  /** Stops following the caller's signal; called once the run has ended. */
  close(): void {
    this.#unlink()
  }

  /** Calls one hook on every observer of the agent; see `notify`. */
  observe<Hook extends keyof Observer>(hook: Hook, event: HookEvent<Hook>): Promise<void> | undefined {
    return notify(this.agent.observers, hook, event, this.agent.awaitObservers)
  }

  async startIteration(): Promise<void> {
    this.#openIteration = this.iterations + 1
    await this.observe('onIterationStart', {
      runId: this.runId,
      agent: this.agent.name,
      iteration: this.#openIteration,
    })
  }

  /** Observes the end of the open iteration, once; does nothing when none is open. */
  async endIteration(): Promise<void> {
    if (this.#openIteration === 0) return
    const iteration = this.#openIteration
    this.#openIteration = 0
    await this.observe('onIterationEnd', { runId: this.runId, agent: this.agent.name, iteration })
  }

  /** The run as a hook (a validator, `prepare`, `prepareTools`) sees it now. */
  context(): RunContext {
    return {
      deps: this.deps,
      runId: this.runId,
      iteration: this.iterations,
      messages: this.messages,
      usage: this.usage,
    }
  }
}

/** One run's loop: the state that changes at each turn, and what every turn uses unchanged. */
export interface AgentLoop {
  state: LoopState
  modelScope: ModelCallScope
  /** `tools` is set to the tools offered at each turn */
  toolScope: ToolRunScope
  system: string | undefined
  /** the agent's tools: offered at every turn unless the agent prepares them per turn */
  allTools: OfferedTools
  /** builds the scopes, system prompt and tools afresh for `state.agent`, after a handoff */
  reopen: () => void
}
