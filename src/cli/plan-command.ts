import { readBaselineIfPresent } from '../baselines/baseline.ts'
import { DEFAULT_ALPHA } from '../baselines/defaults.ts'
import { planTrials, type TrialPlan } from '../baselines/plan.ts'
import { loadSuites } from '../cases/load.ts'
import { ConfigError } from '../errors.ts'
import { makeStyle, type Style } from '../reporters/format.ts'
import { baselineFileFor } from '../runner/tally/baselines.ts'
import { suiteFileKey } from '../runner/plan/variants.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'
import { NO_COLOR_FLAG } from './shared-flags.ts'

const LABEL = 'evals plan'
const TRIALS = [1, 2, 3, 5, 10, 20]

/**
 * `evals plan <case-file…>`: before any model is called, what drop each suite's gate can see at 1 to 20 trials per
 * run, and (`--drop 5`) how many trials a 5-point drop needs, from the baseline's per-case variance.
 */
export const planCommand = defineCommand({
  name: LABEL,
  usage: `Usage: evals plan <cases.yaml|glob…> [--baseline <dir|file>] [--drop <points>] [options]

Answers "how many trials do I need to detect a 5-point drop?" before spending money: for each suite, the smallest
drop of its weighted accuracy the gate's paired test catches at 80% power, for 1 to 20 trials per run, against the
baseline as it is and against a baseline run at as many trials. The pass/fail variance of each case comes from the
baseline (\`--baseline\`); without one, every case is assumed to pass \`--pass-rate\` of its trials.`,
  flags: {
    baseline: {
      type: 'string',
      value: '<dir|file>',
      description: 'read each case’s variance from `<dir>/<suite>.json` (or one file)',
    },
    drop: {
      type: 'string',
      value: '<points>',
      key: false,
      description: 'the drop to plan for, in points of accuracy, e.g. 5',
    },
    alpha: {
      type: 'string',
      value: '<p>',
      key: false,
      description: `the gate's significance level (default ${String(DEFAULT_ALPHA)})`,
    },
    'pass-rate': {
      type: 'string',
      value: '<p>',
      key: false,
      description: 'the pass rate assumed for every case without a baseline (default 0.9)',
    },
    'no-color': NO_COLOR_FLAG,
    help: HELP_FLAG,
  },
  footer: 'Exit codes: 0 planned, 2 a case file or baseline is missing or invalid.\n',
  async run({ flags, given, positionals }) {
    if (positionals.length === 0) {
      throw new ConfigError(
        `${LABEL}: give at least one case file or glob, e.g. \`evals plan cases/quickstart.yaml\`.`,
      )
    }
    const drop = numberFlag(given.drop, '--drop', (n) => n > 0 && n <= 100, 'of points between 0 and 100')
    const alpha = numberFlag(given.alpha, '--alpha', (n) => n > 0 && n < 1, 'between 0 and 1 (exclusive)')
    const passRate = numberFlag(
      given['pass-rate'],
      '--pass-rate',
      (n) => n > 0 && n < 1,
      'between 0 and 1 (exclusive)',
    )
    const suites = await loadSuites(positionals)
    const s = makeStyle(given['no-color'] !== true && !process.env.NO_COLOR && process.stdout.isTTY)
    const lines: string[] = []
    for (const suite of suites) {
      const file =
        flags.baseline === undefined
          ? undefined
          : baselineFileFor(flags.baseline, suiteFileKey(suite), suites.length)
      const baseline = file === undefined ? null : await readBaselineIfPresent(file)
      const cases = [...suite.cases.keys()]
        .filter((index) => suite.cases.skip(index) === undefined)
        .map((index) => ({ id: suite.cases.id(index), weight: suite.cases.weight(index) }))
      const plan = planTrials(cases, baseline, {
        trials: TRIALS,
        ...(alpha !== undefined && { alpha }),
        ...(passRate !== undefined && { assumedPassRate: passRate }),
        ...(drop !== undefined && { drop: drop / 100 }),
      })
      lines.push(...formatPlan(suite.name, plan, file, baseline !== null, alpha ?? DEFAULT_ALPHA, s), '')
    }
    process.stdout.write(lines.join('\n'))
    return EXIT.ok
  },
})

/** A suite's plan: where the variance came from, the table of detectable drops, and the trials a drop needs. */
export function formatPlan(
  suite: string,
  plan: TrialPlan,
  file: string | undefined,
  found: boolean,
  alpha: number,
  s: Style,
): string[] {
  const { variance } = plan
  const from =
    variance.kind === 'baseline'
      ? `pass/fail variance of each case from ${file ?? 'the baseline'} (${variance.trials} trials a case)`
      : variance.kind === 'baseline-rate'
        ? `${file ?? 'the baseline'} has one trial a case, so every case is taken at the suite's pass rate, ${pct(variance.passRate)}`
        : `${file !== undefined && !found ? `no baseline at ${file}; ` : ''}every case assumed to pass ${pct(variance.passRate)} of its trials (give \`--baseline\` for the real variance)`
  const cell = (value: number | null): string => (value === null ? '—' : (value * 100).toFixed(1)).padStart(6)
  const lines = [
    `${'Suite'.padEnd(10)}${suite} · ${plan.cases} case${plan.cases === 1 ? '' : 's'} · ${s.dim(from)}`,
    `${' '.repeat(10)}the smallest drop, in points, its gate catches at 80% power (one-sided α = ${alpha}), spread over the cases:`,
    `  ${'trials per run'.padEnd(22)}${plan.rows.map((row) => String(row.trials).padStart(6)).join('')}`,
  ]
  if (plan.baselineTrials !== null) {
    lines.push(
      `  ${`baseline as is (${plan.baselineTrials})`.padEnd(22)}${plan.rows.map((row) => cell(row.againstBaseline)).join('')}`,
    )
  }
  lines.push(`  ${'baseline at as many'.padEnd(22)}${plan.rows.map((row) => cell(row.sameTrials)).join('')}`)
  const { forDrop } = plan
  if (forDrop !== undefined) {
    const points = `${(forDrop.drop * 100).toFixed(1)}-point drop`
    const same =
      forDrop.sameTrials === null
        ? 'more than 1000 trials a side'
        : `${forDrop.sameTrials} trial${forDrop.sameTrials === 1 ? '' : 's'} a side`
    const against =
      plan.baselineTrials === null
        ? ''
        : forDrop.againstBaseline === null
          ? `; against this baseline no number of trials does (its own ${plan.baselineTrials}-trial noise hides it: rerun it with more trials)`
          : `; against this baseline (${plan.baselineTrials} trials a case), ${forDrop.againstBaseline} trial${forDrop.againstBaseline === 1 ? '' : 's'} per run`
    lines.push(`${'Drop'.padEnd(10)}to see a ${points}: ${same}${against}`)
  }
  return lines
}

function pct(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`
}

function numberFlag(
  value: string | undefined,
  flag: string,
  valid: (n: number) => boolean,
  range: string,
): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || !valid(n)) {
    throw new ConfigError(`${LABEL}: \`${flag}\` must be a number ${range}, got "${value}".`)
  }
  return n
}
