import type { Transcript, Turn } from '../types.ts'

/** The system under test: turns one case's input into a transcript. */
export interface Target {
  /** shown in reports and baselines, e.g. `agent:./agents/support.ts` */
  readonly id: string
  run(input: string | Turn[], context: TargetContext): Promise<Transcript>
  /** called once after the run's last case, e.g. to stop an agent's MCP servers */
  close?(): Promise<void>
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
}
