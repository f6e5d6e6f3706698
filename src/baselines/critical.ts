import { fisherLess } from '../stats/hypergeometric.ts'
import { isSignificant } from '../stats/significance.ts'
import type { CaseComparison } from './comparison.ts'
import { pValue } from './format.ts'

/** What the gate makes of the critical cases of a comparison. */
export interface CriticalVerdicts {
  reasons: string[]
  warnings: string[]
}

/** Whether a case is critical: its own `critical:` setting, or one of `criticalTags`; returns why, or undefined. */
export function criticalBecause(
  entry: Pick<CaseComparison, 'critical' | 'tags'>,
  criticalTags: readonly string[],
): string | undefined {
  if (entry.critical !== undefined) return '`critical`'
  const tag = entry.tags.find((candidate) => criticalTags.includes(candidate))
  return tag === undefined ? undefined : `tagged \`${tag}\``
}

/**
 * Judges each critical case that dropped on its own, by Fisher's exact test of its passes over its trials against
 * the baseline's (one-sided, at `alpha`): a significant drop fails the gate. A drop the trials could never show as
 * significant (one trial: even 1/1 → 0/1 has p = 0.5) is a warning that says so, or a failure when `strict`. A drop
 * the test could have seen but did not is noise and says nothing. Floors (`critical: { min_pass_rate }`) are
 * checked with the other floors, with or without a baseline.
 */
export function criticalVerdicts(
  cases: readonly CaseComparison[],
  criticalTags: readonly string[],
  alpha: number,
  strict: boolean,
): CriticalVerdicts {
  const reasons: string[] = []
  const warnings: string[] = []
  for (const entry of cases) {
    const why = criticalBecause(entry, criticalTags)
    const { baseline, current } = entry
    if (why === undefined || entry.transition !== 'regressed' || !baseline || !current) continue
    const moved = `${baseline.passes}/${baseline.trials} → ${current.passes}/${current.trials} trials passed`
    const p = fisherLess(baseline.passes, baseline.trials, current.passes, current.trials)
    if (isSignificant(p, alpha)) {
      reasons.push(
        `Critical case \`${entry.id}\` dropped: ${moved} (${why}), one-sided Fisher exact test ${pValue(p)} < α = ${alpha}.`,
      )
      continue
    }
    if (strict) {
      reasons.push(
        `Critical case \`${entry.id}\` dropped: ${moved} (${why}; \`strict_critical\` fails any drop).`,
      )
      continue
    }
    // the strongest evidence these trials could give: every current trial failing
    const best = fisherLess(baseline.passes, baseline.trials, 0, current.trials)
    if (!isSignificant(best, alpha)) {
      warnings.push(
        `Critical case \`${entry.id}\` dropped: ${moved} (${why}), but ${current.trials} trial(s) against the ` +
          `baseline's ${baseline.trials} cannot tell a drop from noise (even 0/${current.trials} gives ${pValue(best)} ≥ α = ${alpha}). ` +
          'Run more trials, give it a floor with `critical: { min_pass_rate: … }`, or set `strict_critical: true` to fail on any drop.',
      )
    }
  }
  return { reasons, warnings }
}
