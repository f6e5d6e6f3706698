import type { StopReason, TraceStep, Usage } from '../../types.ts'
import type { AgentUsage } from './agent-usage.ts'

/** What a finished sub-agent run hands to the run of the tool call that started it. */
export interface SubRunReport {
  agent: string
  runId: string
  stopReason: StopReason
  usage: Usage
  costUsd: number | null
  requests: number
  trace: TraceStep[]
  usageByAgent?: Record<string, AgentUsage>
  startedAt: number
  durationMs: number
}

/** How a tool call links the agent runs it starts (`run(input, { parent: ctx })`) to its own run. */
export interface SubRunLink {
  adopt(report: SubRunReport): void
  /** the OpenTelemetry context of the call's span, when spans are recorded */
  spanParent(): unknown
}
