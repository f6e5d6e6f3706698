import type { CaseResult } from '../model/case-result.ts'
import type { RunInfo, RunReport } from '../model/run-report.ts'

export type { CaseResult, RunInfo, RunReport }

/** Observes a run. Every hook is optional; implement only what the output needs. Hooks may be async. */
export interface Reporter {
  onRunStart?(run: RunInfo): void | Promise<void>
  /** called once per (case, trial) pair as it finishes; do not keep the transcript */
  onCaseEnd?(result: CaseResult): void | Promise<void>
  onRunEnd?(report: RunReport): void | Promise<void>
}
