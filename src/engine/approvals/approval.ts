import type { Message, ToolCallRecord, TraceStep, Usage } from '../../types.ts'
import type { AgentUsage } from '../agents/agent-usage.ts'

/** A tool call that waits for a person's decision; the run stopped with `stopReason: 'interrupted'` before it ran. */
export interface PendingApproval {
  /** id of the tool call: a decision names it */
  callId: string
  /** the tool */
  name: string
  /** the validated arguments the call would run with */
  args: unknown
  /** why it needs approval: the policy rule that matched, or the tool's `needsApproval` */
  reason: string
  /** the agent whose tool it is */
  agent: string
}

/** A person's answer to one pending call, given to `agent.resume(state, decisions)`. */
export interface ApprovalDecision {
  callId: string
  approved: boolean
  /** shown to the model when the call is rejected, and in the trace either way */
  reason?: string
}

/** Approves a pending call. */
export function approve(call: Pick<PendingApproval, 'callId'>, reason?: string): ApprovalDecision {
  return reason === undefined
    ? { callId: call.callId, approved: true }
    : { callId: call.callId, approved: true, reason }
}

/** Rejects a pending call; the model is told the reason and goes on without the call. */
export function reject(call: Pick<PendingApproval, 'callId'>, reason?: string): ApprovalDecision {
  return reason === undefined
    ? { callId: call.callId, approved: false }
    : { callId: call.callId, approved: false, reason }
}

/**
 * An interrupted run, as plain JSON data: store it anywhere (`JSON.stringify`), and resume it later, in this process
 * or another, with an Agent built the same way. Tool results and arguments are kept as the tools returned them, so
 * the state is JSON-safe as long as they are. Deps and the abort signal are not part of it: pass them to `resume`.
 */
export interface RunState {
  /** format of this object; `resume` refuses another */
  version: 1
  runId: string
  /** the agent that started the run: `resume` must be called on an agent of this name */
  agent: string
  /** the agent answering when the run stopped (another than `agent` after a handoff) */
  currentAgent: string
  /** the session the run belongs to, saved when the resumed run ends */
  sessionId?: string
  /** the calls waiting for a decision */
  pending: PendingApproval[]
  /** the conversation so far; the last message holds the pending calls */
  messages: Message[]
  toolCalls: ToolCallRecord[]
  trace: TraceStep[]
  reasoning: string[]
  usage: Usage
  costUsd: number | null
  requests: number
  iterations: number
  toolErrors: number
  /** per tool: its failed calls in a row */
  failureStreaks: Record<string, number>
  outputRetries: number
  providerUsed: string
  /** time the run has taken so far */
  durationMs: number
  /** the memory's summary of messages it no longer sends, and where the sent messages start */
  memory?: { start: number; summary?: string }
  /** per agent, what it spent, when several agents took part */
  usageByAgent?: Record<string, AgentUsage>
  /** the first message not yet attributed to an agent (runs with handoffs) */
  unstampedFrom?: number
}
