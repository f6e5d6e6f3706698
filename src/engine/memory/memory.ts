import type { Provider } from '../../providers/provider.ts'
import type { Message } from '../../types.ts'

/**
 * What the model is sent of a long conversation. The window drops the oldest messages first and never separates a
 * tool call from its results: it starts at a user or assistant message, keeps system messages, and keeps the user
 * message of the turn it starts in. Without a session, the window applies within one run (to `history` and the new
 * messages); with a session, what the window keeps and the summary are what the session stores.
 */
export interface MemoryOptions {
  /** most messages sent to the model (the system prompt and the summary are not counted) */
  maxMessages?: number
  /** most tokens of messages sent, as `countTokens` counts them */
  maxTokens?: number
  /** a message's tokens @default its characters / 4, rounded up, plus 4 */
  countTokens?: (message: Message) => number
  /**
   * summarise what the window drops, with this model (a model string such as `openai:gpt-4.1-mini`, `local`
   * offline, or a Provider); the summary is sent with the system prompt from then on
   */
  summarize?: string | Provider | SummarizeOptions
}

export interface SummarizeOptions {
  model: string | Provider
  /** the summariser's system prompt @default asks for the facts, decisions and open questions in a few sentences */
  instructions?: string
}

/** Where the sent messages start in the run's conversation, and the summary of the messages before. */
export interface MemoryView {
  /** messages before this index are not sent, except system messages and the user message of the current turn */
  start: number
  summary?: string
}

/** The memory options with defaults applied and the summariser resolved. */
export interface ResolvedMemory {
  maxMessages: number
  maxTokens: number
  countTokens: (message: Message) => number
  summarizer?: { provider: Provider; instructions: string }
}
