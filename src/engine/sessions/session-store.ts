import type { Message } from '../../types.ts'

/** One stored conversation. */
export interface SessionRecord {
  id: string
  /** what the next run continues: the conversation, or what the agent's memory keeps of it */
  messages: Message[]
  /** the memory's summary of the messages it no longer keeps */
  summary?: string
  /** the agent that answered last (after a handoff, the next run still starts with the agent it is given) */
  agent?: string
  /** ms since the Unix epoch, set by the engine on each save */
  updatedAt: number
}

/** Gives up a session's lock. */
export type ReleaseLock = () => Promise<void>

/**
 * Where sessions live. The engine locks a session for a whole run (load, run, save, release), so two runs of one
 * session never interleave: the second waits. Records are plain JSON data. Check a store of your own (Redis,
 * Postgres, …) with `sessionStoreContract` from `agent-evals/testing`.
 */
export interface SessionStore {
  /** the session, or undefined when there is none or it expired */
  load(id: string): Promise<SessionRecord | undefined>
  /** replaces the session */
  save(record: SessionRecord): Promise<void>
  delete(id: string): Promise<void>
  /**
   * waits until no one else holds the session, then holds it until the returned function is called; rejects with the
   * signal's reason when it is aborted first
   */
  lock(id: string, signal?: AbortSignal): Promise<ReleaseLock>
}

/** Checks a session id: the stores use it in keys and file names. */
export function checkSessionId(id: string): string | undefined {
  if (typeof id !== 'string' || !/^[\w.:@-]{1,200}$/.test(id) || id.startsWith('.'))
    return `session id ${JSON.stringify(id)} must be 1 to 200 letters, digits, \`_\`, \`.\`, \`:\`, \`@\` or \`-\`, not starting with \`.\``
  return undefined
}
