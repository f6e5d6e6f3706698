import type { Message } from '../../types.ts'

/** Limits of a message window. */
export interface WindowLimits {
  maxMessages?: number
  maxTokens?: number
  /** @default characters / 4, rounded up, plus 4 */
  countTokens?: (message: Message) => number
}

/** A window over a conversation: the messages to send, and what was left out. */
export interface MessageWindow {
  /** what to send: system messages, the current turn's user message when the window starts after it, the rest */
  messages: Message[]
  /** index of the first message of the kept tail */
  start: number
  /** messages left out (system messages and the anchored user message never are) */
  dropped: Message[]
  /** tokens of `messages` as counted */
  tokens: number
  /** false when even the shortest window allowed is over a limit */
  fits: boolean
}

export function estimateTokens(message: Message): number {
  let chars = message.content.length
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length
  return Math.ceil(chars / 4) + 4
}

/**
 * The longest window that fits the limits, starting no earlier than `from`. It starts at a user or assistant
 * message, so no tool result is sent without its call. When nothing fits, the shortest window allowed is returned
 * with `fits: false`. Written for hand-made windows too: `windowMessages(history, { maxMessages: 20 })`.
 */
export function windowMessages(messages: readonly Message[], limits: WindowLimits, from = 0): MessageWindow {
  const count = limits.countTokens ?? estimateTokens
  const maxMessages = limits.maxMessages ?? Infinity
  const maxTokens = limits.maxTokens ?? Infinity
  const tokens = messages.map(count)
  // suffix sums: tail[c] is the tokens of messages[c..]
  const tail = new Array<number>(messages.length + 1).fill(0)
  for (let i = messages.length - 1; i >= 0; i--) tail[i] = (tail[i + 1] ?? 0) + (tokens[i] ?? 0)
  let pinnedCount = 0
  let pinnedTokens = 0
  let anchor = -1
  let best: { start: number; size: number; tokens: number } | undefined
  for (let cut = 0; cut < messages.length; cut++) {
    const message = messages[cut]
    if (message === undefined) break
    if (cut >= from && message.role !== 'tool' && message.role !== 'system') {
      const anchored = message.role === 'user' || anchor < 0 ? 0 : 1
      const size = pinnedCount + anchored + (messages.length - cut)
      const total = pinnedTokens + (anchored ? (tokens[anchor] ?? 0) : 0) + (tail[cut] ?? 0)
      best = { start: cut, size, tokens: total }
      if (size <= maxMessages && total <= maxTokens) return windowAt(messages, best, from, true)
    }
    if (message.role === 'system' && cut < messages.length) {
      pinnedCount++
      pinnedTokens += tokens[cut] ?? 0
    }
    if (message.role === 'user') anchor = cut
  }
  if (!best) return { messages: [...messages], start: from, dropped: [], tokens: tail[0] ?? 0, fits: false }
  return windowAt(messages, best, from, false)
}

/** The messages a window starting at `start` sends, without trimming further. */
export function messagesFrom(messages: readonly Message[], start: number): Message[] {
  return windowAt(messages, { start, tokens: 0 }, start, true).messages
}

function windowAt(
  messages: readonly Message[],
  at: { start: number; tokens: number },
  from: number,
  fits: boolean,
): MessageWindow {
  const head: Message[] = []
  const dropped: Message[] = []
  const first = messages[at.start]
  const anchor = first?.role === 'user' ? -1 : lastUserBefore(messages, at.start)
  for (let i = 0; i < at.start; i++) {
    const message = messages[i]
    if (message === undefined) continue
    if (message.role === 'system' || i === anchor) head.push(message)
    else if (i >= from) dropped.push(message)
  }
  return {
    messages: [...head, ...messages.slice(at.start)],
    start: at.start,
    dropped,
    tokens: at.tokens,
    fits,
  }
}

function lastUserBefore(messages: readonly Message[], index: number): number {
  for (let i = index - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i
  return -1
}
