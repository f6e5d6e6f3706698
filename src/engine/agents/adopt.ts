import { chargeAgent } from '../accounting.ts'
import type { LoopState } from '../loop-state.ts'
import { addUsage } from '../../types.ts'
import type { SubRunReport } from './sub-run.ts'

/**
 * Rolls a sub-agent's run into the run of the tool call that started it: its usage, cost and requests count in the
 * run's totals and per agent, and its trace becomes an `agent_run` step.
 */
export function adoptSubRun(state: LoopState, callId: string, report: SubRunReport): void {
  // a run that did not expect sub-agents starts its per-agent figures now: all it spent so far was its own
  state.usageByAgent ??= new Map([
    [state.agent.name, { usage: state.usage, costUsd: state.costUsd, requests: state.requests }],
  ])
  state.requests += report.requests
  state.usage = addUsage(state.usage, report.usage)
  state.costUsd = state.costUsd === null || report.costUsd === null ? null : state.costUsd + report.costUsd
  if (report.usageByAgent)
    for (const [agent, spent] of Object.entries(report.usageByAgent)) chargeAgent(state, agent, spent)
  else
    chargeAgent(state, report.agent, {
      usage: report.usage,
      costUsd: report.costUsd,
      requests: report.requests,
    })
  state.trace.push({
    type: 'agent_run',
    startedAt: report.startedAt,
    durationMs: report.durationMs,
    callId,
    agent: report.agent,
    runId: report.runId,
    stopReason: report.stopReason,
    usage: report.usage,
    costUsd: report.costUsd,
    steps: report.trace,
  })
}
