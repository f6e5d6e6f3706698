import type { CaseResult, RunInfo, RunReport } from '../runner/result.ts'

export type { CaseResult, RunInfo, RunReport }

/** Observes a run. Every hook is optional; implement only what the output needs. Hooks may be async. */
export interface Reporter {
  onRunStart?(run: RunInfo): void | Promise<void>
  /** called once per (case, trial) pair as it finishes; do not keep the transcript */
  onCaseEnd?(result: CaseResult): void | Promise<void>
  onRunEnd?(report: RunReport): void | Promise<void>
}
