import type { SubRunReport } from './agents/sub-run.ts'
import type { ApprovalDecision } from './approvals/approval.ts'
import type { PolicyRules } from '../tools/policy.ts'
import type { AnyTool } from '../tools/tool.ts'
import type { ToolCallRecord, ToolCallRequest, TraceStep } from '../types.ts'
import type { ResponseCache } from './cache.ts'
import type { EmitEvent } from './event-channel.ts'
import type { ToolCacheEpochs } from './tool-cache-epochs.ts'
import type { Observer } from './observer.ts'

/** Everything the tool runner needs from the run. */
export interface ToolRunScope {
  runId: string
  agent: string
  tools: ReadonlyMap<string, AnyTool>
  deps: unknown
  signal: AbortSignal
  observers: readonly Observer[]
  awaitObservers: boolean
  trace: TraceStep[]
  emit: EmitEvent | undefined
  policy: PolicyRules | undefined
  confirm: ((call: ToolCallRequest & { args: unknown }) => boolean | Promise<boolean>) | undefined
  confirmTimeoutMs: number
  defaultTimeoutMs: number
  /** the agent's `maxToolResultChars`, for tools without their own limit */
  maxResultChars: number | undefined
  parallel: boolean
  concurrency: number
  /** where cacheable tools keep results: the agent's cache, else one for the run */
  toolCache: ResponseCache | undefined
  /** the agent's record of cached results made stale by tools that write */
  cacheEpochs: ToolCacheEpochs
  /** set when the run has deps of its own: results of tools that declare no `deps` part stay within the run */
  cacheScope: string | undefined
  /** adds an agent run started in a call (`run(input, { parent: ctx })`) to this run */
  adopt?: ((callId: string, report: SubRunReport) => void) | undefined
  /** the OpenTelemetry context of a call's span */
  spanOfCall?: ((callId: string) => unknown) | undefined
  /** a person's decisions on calls under review, by call id, when a run is resumed */
  approvals?: ReadonlyMap<string, ApprovalDecision> | undefined
}

/** One finished call: the record for the result, the text for the model, and whether it succeeded. */
export interface ToolOutcome {
  record: ToolCallRecord
  /** the tool that ran, when the name was known */
  tool: AnyTool | undefined
  ok: boolean
  /** what the model is sent as the tool result */
  content: string
}
