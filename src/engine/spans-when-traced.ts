import type { Observer } from './observer.ts'

/**
 * Where `@opentelemetry/api` 1.x keeps what is registered in the process (`internal/global-utils`); a tracer provider
 * registered through any copy of the API sits under `trace`.
 */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1')

/**
 * The agent with a spans observer for one run when a tracer provider is registered, else the agent itself: the API
 * and the observer load only then (the API is some 40 files, on the path of every agent's first run otherwise).
 */
export async function withSpansWhenTraced<
  Agent extends { observers: readonly Observer[]; spanOfCall?: (callId: string) => unknown },
>(agent: Agent, parent?: unknown): Promise<Agent> {
  const registered = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[API_GLOBAL]
  if (registered?.trace === undefined) return agent
  return (await import('./spans-observer.ts')).withSpans(agent, parent)
}
