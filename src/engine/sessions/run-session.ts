import { ConfigError, toError } from '../../errors.ts'
import type { Message } from '../../types.ts'
import type { Ending } from '../endings.ts'
import type { LoopState } from '../loop-state.ts'
import { messagesFrom } from '../memory/window.ts'
import type { ResolvedAgent } from '../resolved-agent.ts'
import { checkSessionId, type ReleaseLock, type SessionStore } from './session-store.ts'

/** A session held for one run: what it stored, and how to save and let go of it. */
export interface HeldSession {
  id: string
  store: SessionStore
  history: Message[]
  summary: string | undefined
  release: ReleaseLock
}

/** Locks and loads the run's session; undefined without `sessionId`. Misuse (no store, `history` too) throws. */
export async function holdSession(
  agent: ResolvedAgent,
  sessionId: string | undefined,
  options: { history?: readonly Message[] | undefined; signal?: AbortSignal | undefined },
): Promise<HeldSession | undefined> {
  if (sessionId === undefined) return undefined
  const store = agent.sessions
  if (!store)
    throw new ConfigError(
      `Agent \`${agent.name}\`: \`sessionId\` needs a session store: \`new Agent({ …, sessions: new FileSessionStore({ dir }) })\`.`,
    )
  if (options.history !== undefined)
    throw new ConfigError(
      `Agent \`${agent.name}\`: give \`sessionId\` or \`history\`, not both: the session holds the history.`,
    )
  const problem = checkSessionId(sessionId)
  if (problem) throw new ConfigError(`Agent \`${agent.name}\`: ${problem}.`)
  const release = await store.lock(sessionId, options.signal)
  try {
    const record = await store.load(sessionId)
    return { id: sessionId, store, history: record?.messages ?? [], summary: record?.summary, release }
  } catch (error) {
    await release()
    throw error
  }
}

/**
 * Saves what the next run of the session continues: the conversation as the memory keeps it, without calls that
 * never got results. An interrupted run saves nothing (its state carries the conversation to `resume`), nor does a
 * run a guardrail blocked (the blocked text must not be stored). Returns why saving failed, if it did.
 */
export async function saveSession(
  session: HeldSession,
  state: LoopState,
  ending: Ending,
): Promise<string | undefined> {
  if (ending.stopReason === 'interrupted' || ending.stopReason === 'guardrail') return undefined
  const kept = state.memory ? messagesFrom(state.messages, state.memory.start) : state.messages
  const summary = state.memory?.summary
  try {
    await session.store.save({
      id: session.id,
      messages: answeredOnly(kept),
      ...(summary === undefined ? {} : { summary }),
      agent: state.agent.name,
      updatedAt: Date.now(),
    })
    return undefined
  } catch (error) {
    return `Session \`${session.id}\` was not saved: ${toError(error).message}`
  }
}

/** The messages without tool calls that have no result (a run stopped between a reply and its tools). */
function answeredOnly(messages: readonly Message[]): Message[] {
  const answered = new Set<string>()
  for (const message of messages) if (message.role === 'tool') answered.add(message.toolCallId)
  return messages
    .filter(
      (message) =>
        message.role !== 'assistant' ||
        (message.toolCalls ?? []).every((call) => answered.has(call.id)) ||
        message.content !== '',
    )
    .map((message) => {
      if (message.role !== 'assistant' || !message.toolCalls?.some((call) => !answered.has(call.id)))
        return message
      const { toolCalls: _dropped, ...rest } = message
      return rest
    })
}
