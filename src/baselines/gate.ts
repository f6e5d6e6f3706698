import { ConfigError } from '../errors.ts'
import { isSignificant } from '../stats/significance.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import type { Comparison, PairedComparison } from './comparison.ts'
import { criticalVerdicts } from './critical.ts'
import { percent, pValue, ratio, testName } from './format.ts'
import type { GateOptions, ResolvedGateOptions } from './gate-options.ts'
import { gateOptionsSchema } from './gate-options.ts'
import type { CaseSummary, RunSummary } from './summary.ts'

/** What the gate decided, and why: the front end maps `fail` to exit code 1 (see `--fail-on`). */
export interface GateResult {
  decision: 'pass' | 'fail' | 'warn'
  /** one sentence per failure, naming the case(s) and the numbers */
  reasons: string[]
  /** one sentence per warning, from the comparison and the gate */
  warnings: string[]
  /**
   * the smallest drop of the weighted accuracy its paired test catches at 80% power (0..1), so a pass says what it
   * could not see; for a whole run, the largest over its suites. Absent without a comparison.
   */
  minimumDetectableDrop?: number
}

/** What the gate knows besides the comparison. */
export interface GateContext {
  /** the baseline file that was looked for and not found: the suite runs ungated, with a warning */
  missingBaseline?: string
}

/**
 * Decides whether a run passes. Fails on a significant accuracy regression, a regressed critical case, a case
 * below its `min_pass_rate`, or latency or cost over its limit; warns on anything that makes the comparison
 * doubtful. `comparison` is null when there is no baseline yet (`--baseline-missing ok`): floors still apply.
 */
export function evaluateGate(
  comparison: Comparison | null,
  current: RunSummary,
  options: GateOptions = {},
  context: GateContext = {},
): GateResult {
  const gate = resolveGateOptions(options)
  const reasons: string[] = []
  const warnings = [...(comparison?.warnings ?? [])]
  if (comparison === null && context.missingBaseline !== undefined) {
    warnings.push(
      `No baseline at \`${context.missingBaseline}\`, so this suite ran ungated (only floors apply). ` +
        'Create it with `evals run <case-file> --update-baseline`; `--baseline-missing error` makes a missing baseline stop the run.',
    )
  }
  if (comparison !== null) {
    reasons.push(...significanceReasons(comparison.paired, gate.alpha))
    const critical = criticalVerdicts(comparison.cases, gate.critical_tags, gate.alpha, gate.strict_critical)
    reasons.push(...critical.reasons)
    warnings.push(...critical.warnings)
    reasons.push(...limitReasons(comparison, gate))
  }
  const floors = floorChecks(current.cases, gate)
  reasons.push(...floors.reasons)
  warnings.push(...floors.warnings)
  if (reasons.length === 0 && warnings.length > 0 && gate.fail_on_warnings) {
    reasons.push(`${warnings.length} warning(s) fail the gate because \`fail_on_warnings\` is true.`)
  }
  const decision = reasons.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'pass'
  const mde = comparison?.paired?.power.minimumDetectableDrop
  return { decision, reasons, warnings, ...(mde != null && { minimumDetectableDrop: mde }) }
}

/** Validates gate options and applies defaults; throws ConfigError listing every bad field. */
export function resolveGateOptions(options: GateOptions): ResolvedGateOptions {
  const parsed = gateOptionsSchema.safeParse(options)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((issue) => {
    const where = ['gate', ...issue.path.map(String)].join('.')
    if (issue.code !== 'unrecognized_keys') return `  ${where}: ${issue.message}`
    const known = Object.keys(gateOptionsSchema.shape)
    const unknown = issue.keys.map((key) => {
      const suggestion = didYouMean(key, known)
      return suggestion === undefined ? `"${key}"` : `"${key}" (did you mean \`${suggestion}\`?)`
    })
    return `  ${where}: unknown key ${unknown.join(', ')}. Known keys: ${known.join(', ')}.`
  })
  throw new ConfigError(`Invalid gate options:\n${issues.join('\n')}`)
}

/**
 * The floor of one case: its own `critical: { min_pass_rate }` and the gate's `min_pass_rate` (its case entry,
 * else the highest of its tags', else the default), the higher of the two when both are set.
 */
export function floorFor(
  entry: Pick<CaseSummary, 'id' | 'tags' | 'critical'>,
  minPassRate: ResolvedGateOptions['min_pass_rate'],
): number | undefined {
  const own = entry.critical?.minPassRate
  const gate = gateFloorFor(entry, minPassRate)
  return own === undefined ? gate : gate === undefined ? own : Math.max(own, gate)
}

function gateFloorFor(
  entry: Pick<CaseSummary, 'id' | 'tags'>,
  minPassRate: ResolvedGateOptions['min_pass_rate'],
): number | undefined {
  if (minPassRate === undefined || typeof minPassRate === 'number') return minPassRate
  const own = minPassRate.cases?.[entry.id]
  if (own !== undefined) return own
  const tagFloors = entry.tags.flatMap((tag) => {
    const floor = minPassRate.tags?.[tag]
    return floor === undefined ? [] : [floor]
  })
  return tagFloors.length > 0 ? Math.max(...tagFloors) : minPassRate.default
}

function significanceReasons(paired: PairedComparison | null, alpha: number): string[] {
  // one-sided: the gate asks only "did it get worse?", so improvements never fail a build and the test keeps its power
  if (paired === null || paired.meanDifference >= 0 || !isSignificant(paired.pRegression, alpha)) return []
  return [
    `Accuracy fell ${(-paired.meanDifference * 100).toFixed(1)} points on ${paired.cases} paired case(s): ` +
      `${percent(paired.baselineAccuracy)} → ${percent(paired.currentAccuracy)} weighted ` +
      `(${paired.regressions} fell, ${paired.improvements} rose), one-sided ${testName(paired.method)} ` +
      `${pValue(paired.pRegression)} < α = ${alpha}.`,
  ]
}

function limitReasons(comparison: Comparison, gate: ResolvedGateOptions): string[] {
  const reasons: string[] = []
  const { latency, cost } = comparison
  const paired = comparison.paired?.cases ?? 0
  const latencyLimit = gate.max_latency_ratio
  if (latencyLimit !== undefined && latency.baseline && latency.current) {
    for (const [label, key, value] of [
      ['Median (p50)', 'p50', latency.p50Ratio],
      ['p95', 'p95', latency.p95Ratio],
    ] as const) {
      if (value === null || value <= latencyLimit) continue
      reasons.push(
        `${label} latency rose ${ratio(value)} (${Math.round(latency.baseline[key])} ms → ` +
          `${Math.round(latency.current[key])} ms over ${paired} shared case(s)), over \`max_latency_ratio\` ${latencyLimit}.`,
      )
    }
  }
  const costLimit = gate.max_cost_ratio
  if (costLimit !== undefined && cost.ratio !== null && cost.ratio > costLimit) {
    reasons.push(
      `Cost rose ${ratio(cost.ratio)} ($${(cost.baselineUsd ?? 0).toFixed(4)} → $${(cost.currentUsd ?? 0).toFixed(4)} ` +
        `per trial over ${paired} shared case(s)), over \`max_cost_ratio\` ${costLimit}.`,
    )
  }
  return reasons
}

function floorChecks(
  cases: readonly CaseSummary[],
  gate: ResolvedGateOptions,
): { reasons: string[]; warnings: string[] } {
  const reasons: string[] = []
  const warnings: string[] = []
  for (const entry of cases) {
    const floor = floorFor(entry, gate.min_pass_rate)
    if (floor === undefined) continue
    if (entry.trials === 0) {
      if (entry.status !== 'skipped') {
        warnings.push(
          `Case \`${entry.id}\` has a \`min_pass_rate\` of ${percent(floor)} but no trial reached a verdict (status \`${entry.status}\`).`,
        )
      }
      continue
    }
    const passRate = entry.passes / entry.trials
    if (passRate < floor) {
      reasons.push(
        `${entry.critical?.minPassRate === floor ? 'Critical case' : 'Case'} \`${entry.id}\` passed ` +
          `${entry.passes}/${entry.trials} trials (${percent(passRate)}), below its \`min_pass_rate\` of ${percent(floor)}.`,
      )
    }
  }
  return { reasons, warnings }
}
