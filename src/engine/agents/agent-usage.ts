import type { Usage } from '../../types.ts'

/** What one agent of a run spent: `result.usageByAgent[name]`. */
export interface AgentUsage {
  usage: Usage
  /** null when a model's price is unknown */
  costUsd: number | null
  /** model requests, cache hits and memory summaries included */
  requests: number
}
