import { names } from './format.ts'
import type { CaseComparison } from './comparison.ts'
import type { Baseline } from './schema.ts'
import type { RunSummary } from './summary.ts'

/** Warnings when the suite, target, model, judge model or judge specs differ from the baseline's. */
export function metaWarnings(current: RunSummary, baseline: Baseline): string[] {
  const { meta } = current
  const warnings: string[] = []
  const changed = (what: string, before: string | null, after: string | null): void => {
    if (before !== after) {
      warnings.push(
        `The ${what} differs from the baseline's (\`${after ?? 'none'}\` now, \`${before ?? 'none'}\` in the baseline), ` +
          'so differences may not come from the agent alone. Update the baseline with `--update-baseline` once the change is intended.',
      )
    }
  }
  changed('suite', baseline.suite, meta.suite)
  changed('target', baseline.targetId, meta.targetId)
  changed('model', baseline.modelId, meta.modelId)
  changed('judge model', baseline.judgeModel, meta.judgeModel)
  const specs = [
    ...new Set([...Object.keys(baseline.judgeSpecHashes), ...Object.keys(meta.judgeSpecHashes)]),
  ].sort()
  const changedSpecs = specs.filter((name) => baseline.judgeSpecHashes[name] !== meta.judgeSpecHashes[name])
  if (changedSpecs.length > 0) {
    warnings.push(
      `Judge specs changed since the baseline: ${names(changedSpecs)}, so judged scores may shift for reasons other than ` +
        'the agent. Update the baseline with `--update-baseline` once the change is intended.',
    )
  }
  return warnings
}

/** A warning when the baseline is older than `maxAgeDays`. */
export function ageWarnings(ageDays: number, createdAt: string, maxAgeDays: number | undefined): string[] {
  if (maxAgeDays === undefined || ageDays <= maxAgeDays) return []
  return [
    `The baseline is ${Math.floor(ageDays)} days old (created ${createdAt}), over the ${maxAgeDays}-day limit ` +
      '(`max_baseline_age_days`). Refresh it with `evals run <case-file> --update-baseline`.',
  ]
}

/** Warnings about cases left out of the paired comparison. */
export function caseWarnings(cases: readonly CaseComparison[]): string[] {
  const warnings: string[] = []
  const changedInput = cases.filter((entry) => entry.transition === 'input-changed').map((entry) => entry.id)
  if (changedInput.length > 0) {
    warnings.push(
      `${changedInput.length} case(s) changed input since the baseline and were left out of the comparison: ` +
        `${names(changedInput)}. Update the baseline with \`--update-baseline\` once the change is intended.`,
    )
  }
  // skipped cases and cases that only errored in the baseline are deliberate or already fixed: no warning
  const erroring = cases
    .filter((entry) => entry.transition === 'unscored' && entry.current?.status === 'errored')
    .map((entry) => entry.id)
  if (erroring.length > 0) {
    warnings.push(
      `${erroring.length} case(s) errored on every trial and were left out of the comparison: ${names(erroring)}.`,
    )
  }
  return warnings
}
