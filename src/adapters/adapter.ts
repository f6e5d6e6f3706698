import type { Message, Transcript, Turn } from '../types.ts'

/**
 * Runs an agent built with another framework (the AI SDK, the OpenAI Agents SDK, LangGraph, Mastra) and maps what
 * it returned to transcript parts. The framework's package is never imported here: an adapter recognises the
 * agent by its shape and calls its own methods, so the framework stays an optional peer dependency of ours.
 */
export interface Adapter {
  /** `ai-sdk`, `openai-agents`, `langgraph`, `mastra`: the transcript's source is `adapter:<name>` */
  readonly name: string
  /** the framework as users know it, for messages, e.g. `the OpenAI Agents SDK` */
  readonly framework: string
  /** the npm package whose version is checked against `supported`, e.g. `@openai/agents` */
  readonly package: string
  /** the versions the adapter is tested with: `from` inclusive, `below` exclusive */
  readonly supported: { from: string; below: string }
  /** recognises one of the framework's agents by its shape */
  matches(value: unknown): boolean
  /** runs it on the case's input, with the conversation so far and the case's abort signal */
  run(agent: unknown, request: AdapterRequest): Promise<TranscriptParts>
}

/** What an adapter's run gets from the target. */
export interface AdapterRequest {
  input: string | Turn[]
  /** the earlier turns' messages, tool calls and results included; set in a conversation */
  history?: readonly Message[] | undefined
  signal: AbortSignal
  /** imports a package as the user's agent module resolves it (the Agents SDK's `run`, say) */
  importPackage(specifier: string): Promise<unknown>
}

/**
 * What a mapper makes of one framework result: a Transcript but for the case's `input` and the target's
 * `latencyMs`. Fields the framework reported are filled in; what it does not report stays unknown (null).
 */
export type TranscriptParts = Omit<Transcript, 'input' | 'latencyMs' | 'error'>

/** The case input and history as one list of messages: what the framework is asked to continue. */
export function conversationOf(input: string | Turn[], history: readonly Message[] = []): Message[] {
  const turns: Message[] =
    typeof input === 'string'
      ? [{ role: 'user', content: input }]
      : input.map(({ content, role }) => ({ content, role }))
  // in a conversation the input's turns repeat the history as text: only the new user message is added
  if (history.length === 0) return turns
  const last = turns.at(-1)
  return last === undefined ? [...history] : [...history, last]
}
