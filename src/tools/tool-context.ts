/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext<Deps = unknown> {
  /** the agent's injected dependencies; never shown to the model */
  deps: Deps
  /** aborted when the run is aborted or the tool times out */
  signal: AbortSignal
  runId: string
  /** id of this tool call */
  callId: string
  /** sends a progress chunk to observers and `agent.stream()` */
  emit(chunk: unknown): void
  /**
   * @internal links agent runs started in this call to the call's run: pass the context as `agent.run(input, { parent:
   * ctx })`
   */
  readonly '~run'?: { adopt(report: never): void; spanParent(): unknown }
}

/** What a tool may return: a value, a promise of one, or an async generator whose yields are progress chunks. */
export type ToolReturn<Result> = Result | Promise<Result> | AsyncGenerator<unknown, Result, undefined>
