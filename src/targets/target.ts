import type { McpServerOptions } from '../mcp/options.ts'
import type { CaseTraceContext } from '../traces/trace-hub.ts'
import type { Message, Transcript, Turn } from '../types.ts'

/** The system under test: turns one case's input into a transcript. */
export interface Target {
  /** shown in reports and baselines, e.g. `agent:./agents/support.ts` */
  readonly id: string
  run(input: string | Turn[], context: TargetContext): Promise<Transcript>
  /** called once after the run's last case, e.g. to stop an agent's MCP servers */
  close?(): Promise<void>
  /**
   * our engine's agent: its model calls are paced (and recorded) at the model layer, so the run need not load the
   * HTTP interceptor to pace them
   */
  readonly pacedByEngine?: boolean
}

export interface TargetContext {
  signal: AbortSignal
  caseId: string
  /** 0-based trial index */
  trial: number
  /** model string from the suite or `--model`, for targets that take one */
  model?: string
  /** the case's template variables, for targets that render templates */
  vars?: Record<string, unknown>
  /**
   * in a conversation (`turns:`, `simulated_user:`), the messages before the current user message: the earlier
   * turns' tool calls and results included, as the target produced them. The input's text turns say the same
   * without the tool context.
   */
  history?: readonly Message[]
  /** the case's scripted decisions for tool calls that wait for approval (`approvals:`) */
  approvals?: readonly ScriptedApproval[]
  /**
   * with trace capture on, the case's trace: an `http` target sends its `traceparent` header, a `command` its
   * `TRACEPARENT` and OTLP endpoint variables
   */
  trace?: CaseTraceContext
}

/** A case file's decision on the tool calls it matches, when a run stops to wait for approval. */
export interface ScriptedApproval {
  /** tool name glob */
  tool: string
  /** argument globs that must all match */
  args?: Record<string, string> | undefined
  decision: 'approve' | 'reject'
  reason?: string | undefined
}

/** How to reach the system under test. Module paths are absolute, resolved against the case file. */
export type TargetSpec =
  | {
      type: 'agent'
      /** absolute path of a module whose default export is an Agent or `(input, ctx) => string | Transcript` */
      module: string
      /** MCP servers for the module's `createAgent({ model, mcp })`; a stdio server's `cwd` is absolute */
      mcp?: McpServerOptions[]
    }
  | {
      type: 'function'
      /** absolute path of the module */
      module: string
      /** the export to call, `default` when the spec has no `#name` */
      exportName: string
    }
  | {
      type: 'http'
      url: string
      /** @default 'POST' */
      method: string
      headers: Record<string, string>
      /**
       * the request body: a handlebars template, or an object whose string values are templates (sent as JSON);
       * the target renders it with `input` and the case vars
       */
      body?: string | Record<string, unknown>
      /** dotted path into the JSON reply that holds the output, e.g. `choices.0.message.content`; whole reply when absent */
      output?: string
      /** dotted path of the token usage; the reply's top-level `usage` when absent */
      usage?: string
      /** dotted path of the list of tool calls; unknown when absent */
      toolCalls?: string
      /** dotted path of the model id, for the cost; the reply's top-level `model` when absent */
      model?: string
      timeoutMs?: number
    }
  | {
      type: 'command'
      /** shell command line */
      command: string
      /** how the case input reaches the command @default 'stdin' */
      input: 'stdin' | 'argument'
      /** directory of the case file: the command runs there */
      cwd: string
      timeoutMs?: number
    }
