import { readBaseline } from '../baselines/baseline.ts'
import { compareRun, sharedSuites } from '../baselines/compare-run.ts'
import {
  isRunPath,
  readRunSummary,
  suiteRunOf,
  summaryFileOf,
  type RunSummaryFile,
  type SuiteRun,
} from '../baselines/run-summary-file.ts'
import type { Baseline } from '../baselines/schema.ts'
import { ConfigError } from '../errors.ts'
import { formatComparison, formatGate } from '../reporters/console-baseline.ts'
import { makeStyle } from '../reporters/format.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'
import { GATE_FLAGS, NO_COLOR_FLAG, parseGateFlags } from './shared-flags.ts'

const LABEL = 'evals compare'

/**
 * `evals compare <report-dir-or-summary.json> <baseline.json | run-dir>`: compares a finished run with a baseline
 * or an earlier run and applies the gate (the run's `gate:` block under the flags). Exit 0 pass or warn, 1 gate fail, 2 unreadable input.
 */
export const compareCommand = defineCommand({
  name: LABEL,
  usage: `Usage: evals compare <reports/run-id | summary.json | reports> <baseline.json | reports/run-id> [options]

Compares a finished run (its summary.json; a reports directory means its latest run) with a baseline file, or
with another run (every suite the two share), and applies the gate: the run's \`gate:\` block under the flags.`,
  flags: { ...GATE_FLAGS, 'no-color': NO_COLOR_FLAG, help: HELP_FLAG },
  footer: 'Exit codes: 0 the gate passed or warned, 1 the gate failed, 2 a file is missing or invalid.\n',
  async run({ given, positionals }) {
    const [reportPath, baselinePath, ...extra] = positionals
    if (reportPath === undefined || baselinePath === undefined || extra.length > 0) {
      throw new ConfigError(
        'evals compare: give a run and a baseline, e.g. `evals compare reports/<run-id> baselines/quickstart.json`, ' +
          'or two runs, e.g. `evals compare reports/<run-id> reports/<earlier-run-id>`.',
      )
    }
    const flags = parseGateFlags(given, LABEL)
    const summaryFile = summaryFileOf(reportPath, LABEL)
    const summary = await readRunSummary(summaryFile, LABEL)
    const s = makeStyle(given['no-color'] !== true && !process.env.NO_COLOR && process.stdout.isTTY)
    const lines: string[] = []
    let failed = false
    for (const { current, reference } of await pairsOf(summary, summaryFile, baselinePath)) {
      const { comparison, gate } = compareRun(current, reference, flags)
      failed ||= gate.decision === 'fail'
      lines.push(
        `${'Run'.padEnd(10)}${summaryFile} ${s.dim(`· suite ${current.suite}`)}`,
        ...formatComparison(comparison, s, baselinePath),
        ...formatGate(gate, s),
      )
    }
    process.stdout.write(`${lines.join('\n')}\n`)
    return failed ? EXIT.failed : EXIT.ok
  },
})

/**
 * What to compare: with a baseline file, the run's suite of that name (or its only suite); with a second run, every
 * suite the two runs share.
 */
async function pairsOf(
  summary: RunSummaryFile,
  summaryFile: string,
  referencePath: string,
): Promise<{ current: SuiteRun; reference: Baseline }[]> {
  if (isRunPath(referencePath)) {
    const referenceFile = summaryFileOf(referencePath, LABEL)
    const pairs = sharedSuites(summary, await readRunSummary(referenceFile, LABEL))
    if (pairs.length === 0) {
      throw new ConfigError(
        `evals compare: the runs in \`${summaryFile}\` and \`${referenceFile}\` share no suite; compare two runs of the same case file.`,
      )
    }
    return pairs
  }
  const baseline = await readBaseline(referencePath)
  const current = suiteRunOf(summary, baseline.suite)
  if (current === undefined) {
    throw new ConfigError(
      `evals compare: the run in \`${summaryFile}\` has no suite \`${baseline.suite}\` (the suite of \`${referencePath}\`); ` +
        `it ran ${summary.suiteStats.map((entry) => `\`${entry.suite}\``).join(', ') || 'no suites'}.`,
    )
  }
  return [{ current, reference: baseline }]
}
