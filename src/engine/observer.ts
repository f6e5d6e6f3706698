import type { Completion, CompletionRequest } from '../providers/provider.ts'
import type { GuardrailAction, GuardrailStage, PolicyDecision, ToolCallRecord, Usage } from '../types.ts'
import type { AgentResult } from './agent-run.ts'
import type { PendingApproval } from './approvals/approval.ts'

/** What every observer event carries. */
interface RunEvent {
  /** the run's id, as in `result.runId` */
  runId: string
  /** the agent's `name` */
  agent: string
}

/**
 * Watches agent runs. Every hook is optional and may be async. A hook that throws or rejects is ignored, so an
 * observer can never break a run. By default the loop does not wait for a hook's promise; with the Agent's
 * `awaitObservers: true` it waits for the hooks of each event (all observers at once) before it goes on — except
 * `onFallback` and `onToolChunk`, which fire inside a provider's or tool's own work and are never awaited.
 *
 * Order within a run: `onRunStart`, then per iteration `onIterationStart`, `onLlmStart`, (`onRetry`, `onFallback`),
 * `onLlmEnd`, the tool calls' hooks, `onIterationEnd`; then `onLimit` when a limit stopped the run, and `onRunEnd`
 * last.
 */
export interface Observer {
  /** the run started, before anything else happens */
  onRunStart?(event: RunEvent & { input: unknown }): void | Promise<void>
  /** an iteration (one model call and the tool calls of its reply) starts; `iteration` counts from 1 */
  onIterationStart?(event: RunEvent & { iteration: number }): void | Promise<void>
  /** a model call starts (once per iteration, retries included); cache hits and replayed calls get it too */
  onLlmStart?(
    event: RunEvent & { iteration: number; providerId: string; request: CompletionRequest },
  ): void | Promise<void>
  /** a model call returned; `cached` when the response cache answered it */
  onLlmEnd?(
    event: RunEvent & {
      iteration: number
      providerId: string
      completion: Completion
      durationMs: number
      cached: boolean
    },
  ): void | Promise<void>
  /** a model call failed with a retryable error and is retried after `delayMs` */
  onRetry?(event: RunEvent & { attempt: number; delayMs: number; error: Error }): void | Promise<void>
  /** a fallback provider took over from `from` after `error`; never awaited */
  onFallback?(event: RunEvent & { from: string; to: string; error: Error }): void | Promise<void>
  /** a tool call passed its checks (arguments, policy) and is about to run */
  onToolStart?(event: RunEvent & { callId: string; name: string; args: unknown }): void | Promise<void>
  /** a streaming tool yielded a chunk; never awaited */
  onToolChunk?(event: RunEvent & { callId: string; name: string; chunk: unknown }): void | Promise<void>
  /** a tool call succeeded */
  onToolEnd?(event: RunEvent & { callId: string; call: ToolCallRecord }): void | Promise<void>
  /** a tool call failed or was refused (unknown tool, bad arguments, policy, timeout, abort) */
  onToolError?(event: RunEvent & { callId: string; call: ToolCallRecord }): void | Promise<void>
  /** the policy decided a tool call (after `confirm` for `review` rules) */
  onPolicyDecision?(
    event: RunEvent & { callId: string; name: string; decision: PolicyDecision; reason: string },
  ): void | Promise<void>
  /** tool calls wait for approval: the run ends with `stopReason: 'interrupted'` */
  onInterrupt?(event: RunEvent & { pending: PendingApproval[] }): void | Promise<void>
  /** a guardrail decided on the input, a tool result or the output (`pass` included) */
  onGuardrail?(
    event: RunEvent & {
      stage: GuardrailStage
      name: string
      action: GuardrailAction
      reason: string
      tool?: string
    },
  ): void | Promise<void>
  /** the memory dropped the oldest messages from what the model is sent */
  onMemoryTrim?(event: RunEvent & { dropped: number; kept: number; tokens: number }): void | Promise<void>
  /** the memory summarised the messages it dropped */
  onMemorySummarize?(
    event: RunEvent & { summarized: number; summary: string; usage: Usage },
  ): void | Promise<void>
  /** the conversation moved from agent `from` to agent `to`; later events carry `to` as their agent */
  onHandoff?(event: RunEvent & { from: string; to: string }): void | Promise<void>
  /** a limit stopped the run: `maxIterations` or one of `limits` (`maxRequests`, `maxCostUsd`, …) */
  onLimit?(event: RunEvent & { limit: string; reason: string }): void | Promise<void>
  /**
   * an iteration ended: its reply was handled (tool calls run, output checked) or the run stopped in it; every
   * `onIterationStart` gets one
   */
  onIterationEnd?(event: RunEvent & { iteration: number }): void | Promise<void>
  /** the run ended; `result` is what `run()` returns */
  onRunEnd?(event: RunEvent & { result: AgentResult<unknown> }): void | Promise<void>
}
