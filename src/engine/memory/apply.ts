import { ConfigError, toError } from '../../errors.ts'
import type { Completion } from '../../providers/provider.ts'
import { resolveModel } from '../../providers/registry.ts'
import { DEFAULT_SUMMARY_INSTRUCTIONS, summaryRequestText } from '../../providers/summary-prompt.ts'
import type { Message } from '../../types.ts'
import { chargeExtraCall } from '../accounting.ts'
import type { AgentLoop } from '../loop-state.ts'
import { callModel } from '../model-call.ts'
import type { MemoryOptions, MemoryView, ResolvedMemory } from './memory.ts'
import { estimateTokens, windowMessages } from './window.ts'

/** The memory options, checked, with defaults applied; undefined without any. */
export function resolveMemory(agent: string, options: MemoryOptions | undefined): ResolvedMemory | undefined {
  if (options === undefined) return undefined
  for (const key of ['maxMessages', 'maxTokens'] as const) {
    const value = options[key]
    if (value !== undefined && (!Number.isInteger(value) || value < 1))
      throw new ConfigError(`Agent \`${agent}\`: \`memory.${key}\` must be a positive integer, got ${value}.`)
  }
  if (options.maxMessages === undefined && options.maxTokens === undefined)
    throw new ConfigError(`Agent \`${agent}\`: \`memory\` needs \`maxMessages\`, \`maxTokens\` or both.`)
  const resolved: ResolvedMemory = {
    maxMessages: options.maxMessages ?? Infinity,
    maxTokens: options.maxTokens ?? Infinity,
    countTokens: options.countTokens ?? estimateTokens,
  }
  const summarize = options.summarize
  if (summarize === undefined) return resolved
  const spec = typeof summarize === 'object' && 'model' in summarize ? summarize : { model: summarize }
  resolved.summarizer = {
    provider: resolveModel(spec.model),
    instructions: spec.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS,
  }
  return resolved
}

/**
 * What the next model call is sent under the agent's memory: the window over the conversation, and the system prompt
 * with the summary. Moving the window is a `memory_trim` step; summarising what it dropped, a `memory_summary` step.
 */
export async function sentThroughMemory(
  loop: AgentLoop,
  memory: ResolvedMemory,
): Promise<{ messages: Message[]; system: string | undefined }> {
  const { state } = loop
  const view: MemoryView = (state.memory ??= { start: 0 })
  const window = windowMessages(state.messages, memory, view.start)
  if (window.start > view.start) {
    const event = { dropped: window.dropped.length, kept: window.messages.length, tokens: window.tokens }
    state.trace.push({ type: 'memory_trim', startedAt: Date.now(), durationMs: 0, ...event })
    await state.observe('onMemoryTrim', { runId: state.runId, agent: state.agent.name, ...event })
    if (memory.summarizer && window.dropped.length > 0)
      await summarize(loop, memory.summarizer, window.dropped)
    view.start = window.start
  }
  return { messages: window.messages, system: withSummary(loop.system, view.summary) }
}

/** The system prompt with the memory's summary after it. */
export function withSummary(system: string | undefined, summary: string | undefined): string | undefined {
  if (summary === undefined) return system
  const part = `Summary of the earlier conversation:\n${summary}`
  return system ? `${system}\n\n${part}` : part
}

async function summarize(
  loop: AgentLoop,
  summarizer: NonNullable<ResolvedMemory['summarizer']>,
  dropped: readonly Message[],
): Promise<void> {
  const { state } = loop
  const view = state.memory ?? { start: 0 }
  const startedAt = Date.now()
  const request = {
    system: summarizer.instructions,
    messages: [{ role: 'user' as const, content: summaryRequestText(view.summary, dropped) }],
    tools: [],
  }
  let completion: Completion
  try {
    // its own scope: the summary call is not one of the loop's iterations, so it stays out of their events and steps
    completion = await callModel(request, state.iterations, {
      ...loop.modelScope,
      provider: summarizer.provider,
      cache: undefined,
      observers: [],
      trace: [],
      emit: undefined,
    })
  } catch (error) {
    throw new Error(
      `The memory could not summarise ${dropped.length} messages with \`${summarizer.provider.id}\`: ${toError(error).message}`,
      { cause: error },
    )
  }
  chargeExtraCall(state, summarizer.provider.id, completion)
  view.summary = completion.message.text.trim()
  const event = { summarized: dropped.length, summary: view.summary, usage: completion.usage }
  state.trace.push({
    type: 'memory_summary',
    startedAt,
    durationMs: Date.now() - startedAt,
    providerId: summarizer.provider.id,
    ...event,
  })
  await state.observe('onMemorySummarize', { runId: state.runId, agent: state.agent.name, ...event })
}
