import type { Baseline } from '../../src/baselines/schema.ts'
import { baselineFromSummaries } from '../../src/baselines/summary.ts'
import type { CaseSummary, RunMeta, RunSummary } from '../../src/baselines/summary.ts'

export const meta: RunMeta = {
  suite: 'support',
  createdAt: '2026-11-01T12:00:00.000Z',
  git: { commit: 'abc123', branch: 'main' },
  targetId: 'agent:./agents/support.ts',
  modelId: 'local',
  judgeModel: null,
  judgeSpecHashes: {},
}

/** A case summary; `outcome` is `pass`, `fail`, or `[passes, trials]`. */
export function summary(
  id: string,
  outcome: 'pass' | 'fail' | [number, number],
  extra: Partial<CaseSummary> = {},
): CaseSummary {
  const [passes, trials] = outcome === 'pass' ? [1, 1] : outcome === 'fail' ? [0, 1] : outcome
  return {
    id,
    inputHash: `hash-${id}`,
    tags: [],
    passes,
    trials,
    latencyMs: 100,
    costUsd: 0.001,
    status: trials === 0 ? 'skipped' : passes === trials ? 'passed' : 'failed',
    ...extra,
  }
}

export function run(cases: CaseSummary[], metaOverrides: Partial<RunMeta> = {}): RunSummary {
  return { meta: { ...meta, ...metaOverrides }, cases }
}

export function baselineOf(cases: CaseSummary[], metaOverrides: Partial<RunMeta> = {}): Baseline {
  return baselineFromSummaries({ ...meta, ...metaOverrides }, cases)
}

/** `count` cases `case-00`, `case-01`, … with the given outcome. */
export function many(count: number, outcome: 'pass' | 'fail', prefix = 'case'): CaseSummary[] {
  return Array.from({ length: count }, (_, i) => summary(`${prefix}-${String(i).padStart(2, '0')}`, outcome))
}
