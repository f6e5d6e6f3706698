import type { Message } from '../types.ts'
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

/** A LangChain message (`BaseMessage`), as far as the mapping reads it. */
interface LangChainMessage {
  content: unknown
  name?: string | undefined
  _getType?(): string
  getType?(): string
  /** on an AI message */
  tool_calls?: { id?: string; name: string; args: unknown }[]
  usage_metadata?: {
    input_tokens?: number
    output_tokens?: number
    input_token_details?: { cache_read?: number; cache_creation?: number }
  }
  response_metadata?: {
    model_name?: string
    model?: string
    model_provider?: string
    finish_reason?: string
    stop_reason?: string
  }
  /** on a tool message */
  tool_call_id?: string
  status?: 'success' | 'error'
  artifact?: unknown
}

/** A graph's final state with a `messages` channel, as `graph.invoke({ messages })` returns it. */
export interface LangGraphState {
  messages: readonly LangChainMessage[]
}

/** Recognises a LangGraph state whose `messages` are LangChain messages. */
export function isLangGraphState(value: unknown): value is LangGraphState {
  if (typeof value !== 'object' || value === null || !('messages' in value)) return false
  const messages = value.messages
  return Array.isArray(messages) && messages.length > 0 && typeOf(messages[0]) !== undefined
}

/**
 * Maps a LangGraph run (the final state's `messages`) to transcript parts: the messages after the input, the tool
 * calls of each AI message with the tool messages' results and errors, one `llm_call` step per AI message (model,
 * usage with cached tokens, finish reason), the agent that answered (the last AI message's `name`), iterations and
 * the stop reason; priced with @pydantic/genai-prices. The run's own messages are those after the last human one.
 */
export async function fromLangGraph(
  state: LangGraphState,
  options: MapOptions = {},
): Promise<TranscriptParts> {
  const { parts, calls } = mapLangGraphState(state, options)
  return withCost(parts, calls)
}

function mapLangGraphState(
  state: LangGraphState,
  options: MapOptions,
  runStart = Date.now(),
): { parts: Omit<TranscriptParts, 'costUsd'>; calls: ModelCall[] } {
  const log = new ToolCallLog()
  const all = state.messages
  // a checkpointer may hold earlier turns too: the run's own messages follow the last human message
  const start = all.findLastIndex((message) => typeOf(message) === 'human') + 1
  const messages: Message[] =
    options.input === undefined ? [] : conversationOf(options.input, options.history)
  const calls: ModelCall[] = []
  let answeredBy: string | undefined
  let finish: ModelCall['finishReason'] = 'other'
  for (const message of all.slice(start)) {
    const type = typeOf(message)
    const text = contentText(message.content)
    if (type === 'ai') {
      const toolCalls = message.tool_calls ?? []
      for (const call of toolCalls) log.call(call.id ?? call.name, call.name, call.args)
      const meta = message.response_metadata
      finish = finishReasonOf(meta?.finish_reason ?? meta?.stop_reason)
      const usage = message.usage_metadata
      calls.push({
        provider: meta?.model_provider,
        model: meta?.model_name ?? meta?.model ?? 'unknown',
        usage: usageOf({
          input: usage?.input_tokens,
          output: usage?.output_tokens,
          cacheRead: usage?.input_token_details?.cache_read,
          cacheWrite: usage?.input_token_details?.cache_creation,
        }),
        finishReason: finish,
        toolCalls: toolCalls.length,
      })
      if (message.name !== undefined) answeredBy = message.name
      messages.push({
        role: 'assistant',
        content: text,
        ...(toolCalls.length > 0 && {
          toolCalls: toolCalls.map((call) => ({
            id: call.id ?? call.name,
            name: call.name,
            arguments: textOf(call.args),
          })),
        }),
      })
    } else if (type === 'tool') {
      const id = message.tool_call_id ?? ''
      const failed = message.status === 'error'
      if (failed) log.error(id, text)
      else log.result(id, message.artifact ?? parsedContent(text))
      messages.push({
        role: 'tool',
        toolCallId: id,
        name: message.name ?? 'unknown',
        content: text,
        ...(failed && { isError: true }),
      })
    }
  }
  const last = messages.findLast((message) => message.role === 'assistant')
  const parts: Omit<TranscriptParts, 'costUsd'> = {
    iterations: calls.length,
    messages,
    output: last?.content ?? '',
    source: 'adapter:langgraph',
    toolCalls: log.records,
    trace: traceOf(calls, runStart),
    usage: totalUsage(calls.map((call) => call.usage)),
    ...stopOfFinish(finish, calls.length),
  }
  if (answeredBy !== undefined) parts.agent = answeredBy
  return { parts, calls }
}

function typeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const message = value as LangChainMessage
  if (typeof message.getType === 'function') return message.getType()
  if (typeof message._getType === 'function') return message._getType()
  return undefined
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return textOf(content)
  return content
    .map((part: unknown) =>
      typeof part === 'string' ? part : (((part as { text?: unknown }).text as string | undefined) ?? ''),
    )
    .join('')
}

function parsedContent(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** LangGraph's error when a graph runs out of steps (`recursionLimit`): the agent's own stop. */
export function isRecursionLimit(thrown: unknown): thrown is Error {
  return (thrown as Error | undefined)?.name === 'GraphRecursionError'
}

/** Our messages as LangChain message objects in their plain form (`{ role, content, tool_calls }`). */
function toLangChainMessages(messages: readonly Message[]): unknown[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content }
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content,
          ...(message.toolCalls?.length && {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              name: call.name,
              args: parsedContent(call.arguments),
              type: 'tool_call',
            })),
          }),
        }
      case 'tool':
        return {
          role: 'tool',
          content: message.content,
          tool_call_id: message.toolCallId,
          name: message.name,
          ...(message.isError && { status: 'error' }),
        }
    }
  })
}

interface CompiledGraph {
  invoke(input: { messages: unknown[] }, config: { signal?: AbortSignal }): Promise<LangGraphState>
  stream(
    input: { messages: unknown[] },
    config: { signal?: AbortSignal; streamMode: 'values' },
  ): Promise<AsyncIterable<LangGraphState>>
}

export const langGraphAdapter: Adapter = {
  name: 'langgraph',
  framework: 'LangGraph',
  package: '@langchain/langgraph',
  supported: { from: '1.0.0', below: '2.0.0' },
  matches: (value) =>
    typeof value === 'object' &&
    value !== null &&
    (value as { lg_is_pregel?: unknown }).lg_is_pregel === true &&
    typeof (value as Partial<CompiledGraph>).invoke === 'function',
  async run(graph, { input, history, signal }) {
    const runStart = Date.now()
    const conversation = conversationOf(input, history)
    const options = { input, ...(history && { history }) }
    // streamed as values: when the graph runs out of steps, the last state is what it did until then
    let state: LangGraphState = { messages: [] }
    try {
      const values = await (graph as CompiledGraph).stream(
        { messages: toLangChainMessages(conversation) },
        { signal, streamMode: 'values' },
      )
      for await (const value of values) state = value
    } catch (thrown) {
      // the graph ran out of steps (its `recursionLimit`): the agent's own stop, not the harness's
      if (!isRecursionLimit(thrown) || signal.aborted) throw thrown
      const { parts, calls } = mapLangGraphState(state, options, runStart)
      const stop = { stopReason: 'max_iterations' as const, stopDetail: thrown.message }
      return withCost({ ...parts, ...stop }, calls)
    }
    const { parts, calls } = mapLangGraphState(state, options, runStart)
    return withCost(parts, calls)
  },
}
