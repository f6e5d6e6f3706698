import { ConfigError } from '../errors.ts'
import type {
  Completion,
  CompletionEvent,
  CompletionRequest,
  Provider,
  ProviderCapabilities,
} from '../providers/provider.ts'
import type { FinishReason, Usage } from '../types.ts'
import { estimateUsage } from '../providers/estimate-usage.ts'

/** A scripted tool call: give `args` as a value, or `arguments` as raw (possibly malformed) JSON text. */
export interface ScriptedToolCall {
  name: string
  args?: unknown
  arguments?: string
  id?: string
}

/** One reply of the script: text, tool calls, an error to throw, or a function of the request. */
export type ScriptedReply =
  | string
  | {
      text?: string
      toolCalls?: ScriptedToolCall[]
      usage?: Partial<Usage>
      model?: string
      finishReason?: FinishReason
    }
  | { error: Error }
  | ((request: CompletionRequest) => ScriptedReply)

export interface ScriptedProviderOptions {
  /** @default 'scripted' */
  id?: string
  /** reported as the answering model @default 'scripted' */
  model?: string
  capabilities?: ProviderCapabilities
  /** offer `stream()`, splitting text into word deltas @default true */
  streaming?: boolean
}

/**
 * A deterministic provider for tests: plays back replies in order, records every request, and fails loudly on a
 * call the script did not expect (and, through `assertDone`, on replies left over).
 */
export class ScriptedProvider implements Provider {
  readonly id: string
  readonly capabilities: ProviderCapabilities
  /** every request received, in order */
  readonly calls: CompletionRequest[] = []
  readonly #replies: ScriptedReply[]
  readonly #model: string
  declare stream?: (
    request: CompletionRequest,
    options: { signal: AbortSignal },
  ) => AsyncIterable<CompletionEvent>

  constructor(replies: readonly ScriptedReply[], options: ScriptedProviderOptions = {}) {
    this.#replies = [...replies]
    this.id = options.id ?? 'scripted'
    this.#model = options.model ?? 'scripted'
    this.capabilities = options.capabilities ?? {}
    if (options.streaming ?? true) this.stream = this.#stream.bind(this)
  }

  /** replies not yet played */
  get remaining(): number {
    return this.#replies.length
  }

  async complete(request: CompletionRequest, options: { signal: AbortSignal }): Promise<Completion> {
    this.calls.push(request)
    options.signal.throwIfAborted()
    let reply = this.#replies.shift()
    if (reply === undefined) {
      throw new ConfigError(
        `ScriptedProvider \`${this.id}\` got call ${this.calls.length} but its script had only ${this.calls.length - 1} replies. Add a reply for it.`,
      )
    }
    while (typeof reply === 'function') reply = reply(request)
    if (typeof reply === 'string') reply = { text: reply }
    if ('error' in reply) throw reply.error
    return Promise.resolve(this.#completion(request, reply))
  }

  /** Throws when replies were left unplayed. */
  assertDone(): void {
    if (this.#replies.length > 0) {
      throw new ConfigError(
        `ScriptedProvider \`${this.id}\` has ${this.#replies.length} unplayed replies after ${this.calls.length} calls.`,
      )
    }
  }

  async *#stream(
    request: CompletionRequest,
    options: { signal: AbortSignal },
  ): AsyncGenerator<CompletionEvent> {
    const completion = await this.complete(request, options)
    for (const word of completion.message.text.match(/\S+\s*/g) ?? [])
      yield { type: 'text-delta', text: word }
    for (const [index, call] of completion.message.toolCalls.entries()) {
      yield { type: 'tool-call-delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments }
    }
    yield { type: 'done', completion }
  }

  #completion(
    request: CompletionRequest,
    reply: Exclude<
      ScriptedReply,
      string | { error: Error } | ((request: CompletionRequest) => ScriptedReply)
    >,
  ): Completion {
    const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${this.calls.length}_${index + 1}`,
      name: call.name,
      arguments: call.arguments ?? JSON.stringify(call.args ?? {}),
    }))
    const text = reply.text ?? ''
    return {
      message: { text, toolCalls },
      usage: { ...estimateUsage(request, text, toolCalls), ...reply.usage },
      finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      model: reply.model ?? this.#model,
    }
  }
}
