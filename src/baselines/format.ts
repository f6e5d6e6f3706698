import type { PowerSummary } from './comparison.ts'

/** 0.75 → `75.0%` */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`
}

/** -0.15 → `-15.0 points` */
export function points(delta: number): string {
  return `${delta > 0 ? '+' : ''}${(delta * 100).toFixed(1)} points`
}

/** 0.0215 → `p = 0.0215`; tiny values → `p < 0.0001` */
export function pValue(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`
}

/** 1.8 → `1.80×` */
export function ratio(value: number): string {
  return `${value.toFixed(2)}×`
}

/** [`a`, `b`] → "`a`, `b`" with at most `limit` names, then "and N more" */
export function names(ids: readonly string[], limit = 10): string {
  const shown = ids.slice(0, limit).map((id) => `\`${id}\``)
  return ids.length > limit ? `${shown.join(', ')} and ${ids.length - limit} more` : shown.join(', ')
}

/** The name of a paired test, as reports (old ones included) record its method. */
export function testName(method: 'stratified-permutation' | 'mcnemar-exact' | 'sign-test'): string {
  return method === 'stratified-permutation'
    ? 'paired permutation test'
    : method === 'mcnemar-exact'
      ? 'exact McNemar test'
      : 'sign test'
}

/**
 * What the paired test can see: "detects drops of ≥ 7.5 points at 80% power (α = 0.05; 40 cases, baseline 10
 * trials, now 3); add trials or cases to see smaller ones". Undefined for comparisons without a power figure.
 */
export function powerSentence(paired: {
  cases: number
  power?: PowerSummary | undefined
}): string | undefined {
  const { power } = paired
  if (power === undefined || power.minimumDetectableDrop === null) return undefined
  const trials =
    power.baselineTrials === power.currentTrials
      ? `${power.currentTrials} trial${power.currentTrials === 1 ? '' : 's'} each`
      : `baseline ${power.baselineTrials} trial${power.baselineTrials === 1 ? '' : 's'}, now ${power.currentTrials}`
  return (
    `detects drops of ≥ ${(power.minimumDetectableDrop * 100).toFixed(1)} points at ${Math.round(power.power * 100)}% ` +
    `power (α = ${power.alpha}; ${paired.cases} cases, ${trials}); add trials or cases to see smaller ones`
  )
}
