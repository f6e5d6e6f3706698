import type { Message, Turn } from '../types.ts'
import { conversationOf, type Adapter, type TranscriptParts } from './adapter.ts'
import {
  fromModelMessages,
  fromStepContent,
  toModelMessages,
  type ModelMessage,
  type ResponseMessage,
  type StepPart,
} from './ai-sdk-messages.ts'
import {
  finishReasonOf,
  stopOfFinish,
  totalUsage,
  traceOf,
  usageOf,
  withCost,
  ToolCallLog,
  type ModelCall,
} from './parts.ts'

/** Token counts of a step, as AI SDK 5 (`cachedInputTokens`) and 6–7 (`inputTokenDetails`) report them. */
interface AiSdkUsage {
  inputTokens?: number | undefined
  outputTokens?: number | undefined
  cachedInputTokens?: number | undefined
  inputTokenDetails?: { cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined }
}

interface AiSdkStep {
  finishReason: string
  /** what the step produced: text, tool calls, tool results and errors */
  content?: readonly StepPart[]
  usage?: AiSdkUsage
  /** the model that answered (AI SDK 6 and later) */
  model?: { provider: string; modelId: string }
  response?: { modelId?: string; timestamp?: Date | string | number }
  /** AI SDK 7 */
  performance?: { responseTimeMs?: number; toolExecutionMs?: Readonly<Record<string, number>> }
}

/** What `generateText` and `agent.generate()` return (AI SDK 5 to 7), as far as the mapping reads it. */
export interface AiSdkResult {
  text: string
  steps: readonly AiSdkStep[]
  finishReason: string
  response: { messages: readonly ResponseMessage[]; modelId?: string }
}

/** Options of the mappers: the conversation the result continues, so the transcript's messages start with it. */
export interface MapOptions {
  input?: string | Turn[]
  history?: readonly Message[]
}

/** Recognises a `generateText` / `agent.generate()` result without reading its getters. */
export function isAiSdkResult(value: unknown): value is AiSdkResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    'steps' in value &&
    Array.isArray(value.steps) &&
    'response' in value &&
    'finishReason' in value &&
    'text' in value
  )
}

/**
 * Maps an AI SDK result to transcript parts: tool calls with their arguments, results and errors, one `llm_call`
 * trace step per step (model, usage with cached tokens, finish reason), iterations, the stop reason and the
 * messages; the cost is priced per step with @pydantic/genai-prices.
 */
export async function fromAiSdk(result: AiSdkResult, options: MapOptions = {}): Promise<TranscriptParts> {
  const { parts, calls } = mapAiSdkResult(result, options, 'ai-sdk')
  return withCost(parts, calls)
}

/**
 * The mapping without the price lookup: transcript parts and the model calls to price. The messages come from the
 * steps' content (AI SDK 7's `response.messages` holds only the last step's), or from `response.messages` when
 * `from` says so (Mastra, whose steps' content can leave calls out).
 */
export function mapAiSdkResult(
  result: AiSdkResult,
  options: MapOptions,
  adapter: string,
  runStart = Date.now(),
  from: 'steps' | 'response' = 'steps',
): { parts: Omit<TranscriptParts, 'costUsd'>; calls: ModelCall[] } {
  const log = new ToolCallLog()
  const before = options.input === undefined ? [] : conversationOf(options.input, options.history)
  const produced =
    from === 'steps' ? fromStepContent(result.steps, log) : fromModelMessages(result.response.messages, log)
  const messages = [...before, ...produced]
  for (const step of result.steps) {
    for (const [id, ms] of Object.entries(step.performance?.toolExecutionMs ?? {})) log.duration(id, ms)
  }
  const calls = result.steps.map((step): ModelCall => {
    const usage = step.usage
    return {
      provider: step.model?.provider,
      model: step.model?.modelId ?? step.response?.modelId ?? result.response.modelId ?? 'unknown',
      usage: usageOf({
        input: usage?.inputTokens,
        output: usage?.outputTokens,
        cacheRead: usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens,
        cacheWrite: usage?.inputTokenDetails?.cacheWriteTokens,
      }),
      finishReason: finishReasonOf(step.finishReason),
      toolCalls: 0,
      startedAt: timeOf(step.response?.timestamp),
      durationMs: step.performance?.responseTimeMs,
    }
  })
  countToolCalls(produced, calls)
  const stop = stopOfFinish(finishReasonOf(result.finishReason), result.steps.length)
  const parts: Omit<TranscriptParts, 'costUsd'> = {
    iterations: result.steps.length,
    messages,
    output: result.text,
    source: `adapter:${adapter}`,
    toolCalls: log.records,
    trace: traceOf(calls, runStart),
    usage: totalUsage(calls.map((call) => call.usage)),
    ...stop,
  }
  const parsed = structuredOutput(result)
  if (parsed !== undefined) parts.parsed = parsed
  return { parts, calls }
}

/** How many tool calls each step's assistant message made: one assistant message per step, in order. */
function countToolCalls(messages: readonly Message[], calls: ModelCall[]): void {
  let step = 0
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    const call = calls[step++]
    if (call) call.toolCalls = message.toolCalls?.length ?? 0
  }
}

/** `output` of a result with an `Output` spec; reading it without one throws, so it is read with care. */
function structuredOutput(result: AiSdkResult): unknown {
  try {
    const output = (result as { output?: unknown }).output
    return typeof output === 'object' && output !== null ? output : undefined
  } catch {
    return undefined
  }
}

function timeOf(value: Date | string | number | undefined): number | undefined {
  if (value === undefined) return undefined
  const time = new Date(value).getTime()
  return Number.isNaN(time) ? undefined : time
}

/**
 * The case input as AI SDK messages, after the earlier turns of a conversation (`ctx.history`, tool calls and
 * results included): for a function target that calls `generateText({ messages })` itself.
 */
export function aiSdkMessages(
  input: string | Turn[],
  context: { history?: readonly Message[] | undefined } = {},
): ModelMessage[] {
  return toModelMessages(conversationOf(input, context.history))
}

/** An agent with `generate()`: a `ToolLoopAgent`, or anything implementing the AI SDK's `Agent` interface. */
interface AiSdkAgent {
  generate(options: {
    prompt?: string
    messages?: ModelMessage[]
    abortSignal?: AbortSignal
  }): PromiseLike<AiSdkResult>
}

export const aiSdkAdapter: Adapter = {
  name: 'ai-sdk',
  framework: 'the AI SDK',
  package: 'ai',
  supported: { from: '6.0.0', below: '8.0.0' },
  // the registry asks the other adapters first: a Mastra agent has a `generate()` too
  matches: (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<AiSdkAgent>).generate === 'function',
  async run(agent, { input, history, signal }) {
    const runStart = Date.now()
    const messages = toModelMessages(conversationOf(input, history))
    const result = await (agent as AiSdkAgent).generate({ messages, abortSignal: signal })
    const { parts, calls } = mapAiSdkResult(
      result,
      { input, ...(history && { history }) },
      'ai-sdk',
      runStart,
    )
    return withCost(parts, calls)
  },
}
