import type { RunReport } from '../model/run-report.ts'

/** Exit codes of `evals`: CI can tell "the agent got worse" (1) from "the harness or target broke" (2). */
export const EXIT = { ok: 0, failed: 1, couldNotRun: 2, interrupted: 130 } as const

/**
 * The exit code of a finished run: 130 interrupted; 1 when the gate fails or any case failed; 2 when cases only
 * errored (infrastructure: the target threw or timed out, or an evaluator crashed); 0 otherwise, a gate warning
 * included.
 */
export function exitCodeOf(report: Pick<RunReport, 'counts' | 'gate' | 'stoppedBy'>): number {
  if (report.stoppedBy === 'interrupt') return EXIT.interrupted
  if (report.gate?.decision === 'fail' || report.counts.failed > 0) return EXIT.failed
  if (report.counts.errored > 0) return EXIT.couldNotRun
  return EXIT.ok
}
