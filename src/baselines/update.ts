import { readBaselineIfPresent, writeBaseline } from './baseline.ts'
import { canonicalBaseline } from './canonical.ts'
import type { Baseline } from './schema.ts'
import type { Redactor } from '../util/redact.ts'

/** What `updateBaseline` did: wrote the file, or left it as it was because the results are the same. */
export type BaselineUpdate = 'written' | 'unchanged'

/**
 * Writes a baseline only when its results changed: the suite, target, models, judge specs, or any case's input,
 * tags, status, passes, trials or score. A run with the same results leaves the file byte for byte as it was, so
 * a committed baseline does not churn on its timestamp, commit or latencies; `force` writes it anyway (to refresh
 * the latencies and costs the latency and cost gates compare with). An unreadable old file is replaced. The
 * results are compared as they would be written, secrets redacted.
 */
export async function updateBaseline(
  path: string,
  baseline: Baseline,
  redactor: Redactor,
  force = false,
): Promise<BaselineUpdate> {
  const redacted = redactor.value(baseline)
  if (!force) {
    const previous = await readBaselineIfPresent(path).catch(() => null)
    if (previous !== null && sameResults(previous, redacted)) return 'unchanged'
  }
  await writeBaseline(path, redacted, redactor)
  return 'written'
}

/** Whether two baselines hold the same results, whatever their timestamps, commits, latencies and costs. */
export function sameResults(a: Baseline, b: Baseline): boolean {
  return JSON.stringify(resultsOf(a)) === JSON.stringify(resultsOf(b))
}

function resultsOf(baseline: Baseline): unknown {
  const { schemaVersion, suite, targetId, modelId, judgeModel, judgeSpecHashes, cases } =
    canonicalBaseline(baseline)
  return {
    schemaVersion,
    suite,
    targetId,
    modelId,
    judgeModel,
    judgeSpecHashes,
    cases: cases.map(({ latencyMs: _latency, costUsd: _cost, ...results }) => results),
  }
}
