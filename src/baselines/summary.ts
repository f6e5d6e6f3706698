import { canonicalBaseline } from './canonical.ts'
import type { Baseline } from './schema.ts'
import { BASELINE_SCHEMA_VERSION } from './version.ts'

/** How a case ended over all its trials. */
export type CaseStatus = 'passed' | 'failed' | 'errored' | 'skipped'

/** One case of a finished run, aggregated over its trials: what the runner hands to baselines and gates. */
export interface CaseSummary {
  id: string
  /** hash of the rendered input (see `hashInput`); a changed input makes the case incomparable */
  inputHash: string
  tags: readonly string[]
  /** trials that passed */
  passes: number
  /** trials that reached a verdict (passed or failed); errored and skipped trials are left out */
  trials: number
  /** mean score 0..1 over the scored trials, when evaluators grade */
  score?: number
  /** mean latency of one trial in milliseconds */
  latencyMs: number
  /** mean cost of one trial in USD; null when any trial's cost was unknown (never 0 for unknown) */
  costUsd: number | null
  /** `passed` when every trial passed, `failed` when any failed, `errored` when trials errored and none failed, `skipped` when none ran */
  status: CaseStatus
  /** the case's weight in the accuracy and in the gate's paired test @default 1 */
  weight?: number
  /** the case file's `critical:`: the gate judges this case on its own (its tags may make it critical too) */
  critical?: CriticalSetting
  /** the case file's `expect_fail:`, a known failure: its failures do not keep a baseline from being written */
  expectFail?: KnownFailure
}

/** A critical case's own settings: `critical: true` is `{}`. */
export interface CriticalSetting {
  /** fail the gate when the case's pass rate over its trials falls below this floor, 0..1 */
  minPassRate?: number
}

/** A case expected to fail: `true`, or the reason (e.g. an issue link). */
export type KnownFailure = true | string

/** Who and what produced a run: compared with the baseline's to warn about apples-to-oranges comparisons. */
export interface RunMeta {
  suite: string
  /** ISO 8601 UTC timestamp, e.g. `new Date().toISOString()` */
  createdAt: string
  git?: { commit?: string; branch?: string }
  targetId: string
  /** null when the target has no model */
  modelId: string | null
  /** null when no case is judged */
  judgeModel: string | null
  /** judge spec name → spec hash */
  judgeSpecHashes: Readonly<Record<string, string>>
}

/** A finished run, as compared with a baseline. */
export interface RunSummary {
  meta: RunMeta
  cases: readonly CaseSummary[]
}

/** Builds the baseline of a run, in canonical form (cases sorted by id, tags sorted). */
export function baselineFromSummaries(meta: RunMeta, summaries: readonly CaseSummary[]): Baseline {
  return canonicalBaseline({
    schemaVersion: BASELINE_SCHEMA_VERSION,
    ...meta,
    ...(meta.git && { git: { ...meta.git } }),
    judgeSpecHashes: { ...meta.judgeSpecHashes },
    cases: summaries.map((summary) => ({ ...summary, tags: [...summary.tags] })),
  })
}
