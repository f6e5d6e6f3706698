import { jsonOrText } from '../util/json-or-text.ts'
import type { Message, StopReason } from '../types.ts'
import { conversationOf, type Adapter, type TranscriptParts } from './adapter.ts'
import type { MapOptions } from './ai-sdk.ts'
import {
  finishReasonOf,
  stopOfFinish,
  textOf,
  totalUsage,
  traceOf,
  usageOf,
  withCost,
  ToolCallLog,
  type ModelCall,
} from './parts.ts'

/** An item of a run (`result.newItems`), as far as the mapping reads it. */
interface RunItem {
  type: string
  rawItem: {
    type?: string
    role?: string
    callId?: string
    name?: string
    arguments?: string
    content?: { type: string; text?: string; refusal?: string }[]
    output?: unknown
    status?: string
  }
  agent?: { name: string }
  /** the output value of a tool call */
  output?: unknown
  targetAgent?: { name: string }
}

interface RunUsage {
  inputTokens?: number
  outputTokens?: number
  /** one entry per request (newer versions) or one object */
  inputTokensDetails?: Record<string, number> | Record<string, number>[]
}

interface ModelResponse {
  usage?: RunUsage
  /** the Responses API body: `model`, `status`, `incomplete_details` */
  providerData?: { model?: string; status?: string; incomplete_details?: { reason?: string } | null }
}

/** What `run(agent, input)` returns (`RunResult`), as far as the mapping reads it. */
export interface AgentsRunResult {
  newItems: readonly RunItem[]
  rawResponses: readonly ModelResponse[]
  lastAgent?: { name: string; model?: unknown } | undefined
  finalOutput?: unknown
}

/** Recognises an Agents SDK `RunResult`. */
export function isAgentsRunResult(value: unknown): value is AgentsRunResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    'newItems' in value &&
    'rawResponses' in value &&
    'lastAgent' in value
  )
}

// the text the SDK's default `errorFunction` sends back when a function tool throws
const toolErrorPrefix = 'An error occurred while running the tool'

/**
 * Maps an OpenAI Agents SDK run to transcript parts: tool calls and handoffs (as the `transfer_to_…` calls the model
 * made) with results and errors, the agent that answered, one `llm_call` step per model response with its usage
 * (cached tokens included), iterations, the stop reason and the messages; priced with @pydantic/genai-prices.
 */
export async function fromOpenAIAgents(
  result: AgentsRunResult,
  options: MapOptions = {},
): Promise<TranscriptParts> {
  const { parts, calls } = mapAgentsRun(result.newItems, result.rawResponses, options, {
    lastAgent: result.lastAgent,
    finalOutput: result.finalOutput,
  })
  return withCost(parts, calls)
}

function mapAgentsRun(
  items: readonly RunItem[],
  responses: readonly ModelResponse[],
  options: MapOptions,
  end: {
    lastAgent?: AgentsRunResult['lastAgent']
    finalOutput?: unknown
    stop?: { stopReason: StopReason; stopDetail: string }
  },
  runStart = Date.now(),
): { parts: Omit<TranscriptParts, 'costUsd'>; calls: ModelCall[] } {
  const log = new ToolCallLog()
  const messages: Message[] =
    options.input === undefined ? [] : conversationOf(options.input, options.history)
  let answeredBy: string | undefined
  for (const item of items) {
    const raw = item.rawItem
    if (item.agent) answeredBy = item.agent.name
    if (raw.type === 'function_call' && raw.callId !== undefined) {
      const call = { id: raw.callId, name: raw.name ?? 'unknown', arguments: raw.arguments ?? '' }
      log.call(call.id, call.name, jsonOrText(call.arguments))
      const last = messages.at(-1)
      if (last?.role === 'assistant' && !last.content) (last.toolCalls ??= []).push(call)
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] })
    } else if (raw.type === 'function_call_result' && raw.callId !== undefined) {
      const text = resultText(item)
      const failed = text.startsWith(toolErrorPrefix)
      if (failed) log.error(raw.callId, text)
      else log.result(raw.callId, item.output ?? text)
      if (item.targetAgent) answeredBy = item.targetAgent.name
      messages.push({
        role: 'tool',
        toolCallId: raw.callId,
        name: raw.name ?? 'unknown',
        content: text,
        ...(failed && { isError: true }),
      })
    } else if (raw.role === 'assistant') {
      const text = (raw.content ?? []).map((part) => part.text ?? part.refusal ?? '').join('')
      messages.push({ role: 'assistant', content: text })
    }
  }
  const agentModel = typeof end.lastAgent?.model === 'string' ? end.lastAgent.model : undefined
  const calls = responses.map((response): ModelCall => {
    const details = response.usage?.inputTokensDetails
    const cached = (Array.isArray(details) ? details : details ? [details] : []).reduce(
      (sum, entry) => sum + (entry.cached_tokens ?? 0),
      0,
    )
    return {
      provider: 'openai',
      model: response.providerData?.model ?? agentModel ?? 'unknown',
      usage: usageOf({
        input: response.usage?.inputTokens,
        output: response.usage?.outputTokens,
        cacheRead: cached,
      }),
      finishReason: responseFinish(response),
      toolCalls: 0,
    }
  })
  const lastResponse = responses.at(-1)
  const stop =
    end.stop ??
    (lastResponse && responseFinish(lastResponse) !== 'stop'
      ? stopOfFinish(responseFinish(lastResponse), responses.length)
      : { stopReason: 'final' as const })
  const parts: Omit<TranscriptParts, 'costUsd'> = {
    iterations: responses.length,
    messages,
    output: outputText(end.finalOutput, messages),
    source: 'adapter:openai-agents',
    toolCalls: log.records,
    trace: traceOf(calls, runStart),
    usage: totalUsage(calls.map((call) => call.usage)),
    ...stop,
  }
  const agent = end.lastAgent?.name ?? answeredBy
  if (agent !== undefined) parts.agent = agent
  if (typeof end.finalOutput === 'object' && end.finalOutput !== null) parts.parsed = end.finalOutput
  return { parts, calls }
}

function responseFinish(response: ModelResponse): ModelCall['finishReason'] {
  const data = response.providerData
  if (data?.status === 'incomplete') return finishReasonOf(data.incomplete_details?.reason)
  return data?.status === undefined || data.status === 'completed' ? 'stop' : 'other'
}

function resultText(item: RunItem): string {
  const output = item.rawItem.output
  if (typeof output === 'string') return output
  if (typeof output === 'object' && output !== null && 'text' in output) return textOf(output.text)
  return textOf(item.output ?? output)
}

function outputText(finalOutput: unknown, messages: readonly Message[]): string {
  if (typeof finalOutput === 'string') return finalOutput
  if (finalOutput !== undefined && finalOutput !== null) return textOf(finalOutput)
  return messages.findLast((message) => message.role === 'assistant' && message.content)?.content ?? ''
}

/** Our messages as the Agents SDK's input items: tool calls as `function_call`, results as `function_call_result`. */
function toInputItems(messages: readonly Message[]): unknown[] {
  return messages.flatMap((message): unknown[] => {
    switch (message.role) {
      case 'system':
      case 'user':
        return [{ role: message.role, content: message.content }]
      case 'assistant': {
        const text = message.content
          ? [
              {
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: message.content }],
              },
            ]
          : []
        const calls = (message.toolCalls ?? []).map((call) => ({
          type: 'function_call',
          callId: call.id,
          name: call.name,
          arguments: call.arguments,
          status: 'completed',
        }))
        return [...text, ...calls]
      }
      case 'tool':
        return [
          {
            type: 'function_call_result',
            callId: message.toolCallId,
            name: message.name,
            status: 'completed',
            output: { type: 'text', text: message.content },
          },
        ]
    }
  })
}

/** The Agents SDK's errors that are the agent's own stops, and the stop each one is. */
const agentStops: Record<string, StopReason> = {
  MaxTurnsExceededError: 'max_iterations',
  ModelRefusalError: 'content_filter',
  InputGuardrailTripwireTriggered: 'content_filter',
  OutputGuardrailTripwireTriggered: 'content_filter',
  ToolInputGuardrailTripwireTriggered: 'content_filter',
  ToolOutputGuardrailTripwireTriggered: 'content_filter',
  ModelBehaviorError: 'invalid_output',
  InvalidToolInputError: 'tool_failures',
  ToolCallError: 'tool_failures',
  ToolTimeoutError: 'tool_failures',
}

interface AgentsError extends Error {
  state?: { _generatedItems?: RunItem[]; _modelResponses?: ModelResponse[] }
}

type RunFunction = (
  agent: unknown,
  input: string | unknown[],
  options: { signal?: AbortSignal },
) => Promise<AgentsRunResult>

export const openAIAgentsAdapter: Adapter = {
  name: 'openai-agents',
  framework: 'the OpenAI Agents SDK',
  package: '@openai/agents',
  supported: { from: '0.14.0', below: '1.0.0' },
  matches: (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asTool?: unknown }).asTool === 'function' &&
    Array.isArray((value as { handoffs?: unknown }).handoffs),
  async run(agent, request) {
    const { input, history, signal } = request
    const runStart = Date.now()
    const { run } = (await request.importPackage('@openai/agents')) as { run: RunFunction }
    const items =
      history === undefined && typeof input === 'string'
        ? input
        : toInputItems(conversationOf(input, history))
    const options = { input, ...(history && { history }) }
    let result: AgentsRunResult
    try {
      result = await run(agent, items, { signal })
    } catch (thrown) {
      const stopped = signal.aborted ? undefined : fromAgentsError(thrown, options, runStart)
      if (stopped === undefined) throw thrown
      return stopped
    }
    const end = { lastAgent: result.lastAgent, finalOutput: result.finalOutput }
    const { parts, calls } = mapAgentsRun(result.newItems, result.rawResponses, options, end, runStart)
    return withCost(parts, calls)
  },
}

/**
 * An Agents SDK error that is the agent's own stop (max turns, a tripped guardrail, a refusal, invalid output or
 * tool input…) as transcript parts of what the run did until then, from the error's run state; undefined for any
 * other error, which stays an error.
 */
export function fromAgentsError(
  thrown: unknown,
  options: MapOptions = {},
  runStart = Date.now(),
): Promise<TranscriptParts> | undefined {
  const error = thrown as AgentsError | undefined
  const stopReason = error?.name === undefined ? undefined : agentStops[error.name]
  if (error === undefined || stopReason === undefined) return undefined
  const state = error.state
  const stop = { stopReason, stopDetail: `${error.name}: ${error.message}` }
  const { parts, calls } = mapAgentsRun(
    state?._generatedItems ?? [],
    state?._modelResponses ?? [],
    options,
    { stop },
    runStart,
  )
  return withCost(parts, calls)
}
