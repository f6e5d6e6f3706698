import type { Completion, CompletionRequest } from '../providers/provider.ts'
import type { PolicyDecision, ToolCallRecord } from '../types.ts'
import type { AgentResult } from './options.ts'

interface RunEvent {
  runId: string
  agent: string
}

/**
 * Watches agent runs. Every hook is optional and may be async; a hook that throws or rejects is ignored, so an
 * observer can never break a run. Hooks are not awaited by the loop.
 */
export interface Observer {
  onRunStart?(event: RunEvent & { input: unknown }): void | Promise<void>
  onLlmStart?(
    event: RunEvent & { iteration: number; providerId: string; request: CompletionRequest },
  ): void | Promise<void>
  onLlmEnd?(
    event: RunEvent & {
      iteration: number
      providerId: string
      completion: Completion
      durationMs: number
      cached: boolean
    },
  ): void | Promise<void>
  onRetry?(event: RunEvent & { attempt: number; delayMs: number; error: Error }): void | Promise<void>
  onFallback?(event: RunEvent & { from: string; to: string; error: Error }): void | Promise<void>
  onToolStart?(event: RunEvent & { callId: string; name: string; args: unknown }): void | Promise<void>
  onToolChunk?(event: RunEvent & { callId: string; name: string; chunk: unknown }): void | Promise<void>
  onToolEnd?(event: RunEvent & { callId: string; call: ToolCallRecord }): void | Promise<void>
  onToolError?(event: RunEvent & { callId: string; call: ToolCallRecord }): void | Promise<void>
  onPolicyDecision?(
    event: RunEvent & { callId: string; name: string; decision: PolicyDecision; reason: string },
  ): void | Promise<void>
  /** a limit stopped the run: `maxIterations` or one of `limits` (`maxRequests`, `maxCostUsd`, …) */
  onLimit?(event: RunEvent & { limit: string; reason: string }): void | Promise<void>
  onRunEnd?(event: RunEvent & { result: AgentResult<unknown> }): void | Promise<void>
}

export type ObserverHook = keyof Observer
