import type { AgentResult } from '../agent-run.ts'

/** How `agent.asTool()` presents the agent to the model of another agent. */
export interface AgentToolOptions {
  /** @default the agent's name, as a tool name (`billing agent` → `billing_agent`) */
  name?: string
  /** @default the agent's `description` */
  description?: string
  /** a person approves each call before the agent runs (see the tool option) @default false */
  needsApproval?: boolean
  /** how long one run of the agent may take @default 300_000 */
  timeoutMs?: number
}

/** A name fit for a tool: letters, digits, `_` and `-`, at most 64 characters. */
export function toolNameOf(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'agent'
}

/** The text an agent tool returns: the agent's output, or an error saying why the agent stopped without one. */
export function agentToolOutput(agent: string, result: AgentResult<unknown>): string {
  if (result.stopReason === 'final' || result.stopReason === 'terminal_tool') return result.output
  if (result.stopReason === 'interrupted') {
    const calls = (result.interruptions ?? []).map((call) => `\`${call.name}\``).join(', ')
    throw new Error(
      `Agent \`${agent}\` stopped to wait for approval of ${calls}; an agent called as a tool cannot wait for a person: give it a \`confirm\`, or set \`needsApproval\` on the agent tool itself.`,
    )
  }
  const why = result.guardrail
    ? `guardrail ${result.guardrail.name}: ${result.guardrail.reason}`
    : result.error
  throw new Error(`Agent \`${agent}\` stopped with \`${result.stopReason}\`${why ? ` (${why})` : ''}.`)
}
