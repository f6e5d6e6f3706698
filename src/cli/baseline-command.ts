import { existsSync } from 'node:fs'
import { readBaseline } from '../baselines/baseline.ts'
import type { Baseline } from '../baselines/schema.ts'
import { ConfigError } from '../errors.ts'
import { formatMs, formatUsd, makeStyle, type Style } from '../reporters/format.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'
import { NO_COLOR_FLAG } from './shared-flags.ts'

const MARK = { passed: '✓', failed: '✗', errored: '!', skipped: '-' } as const

/** `evals baseline show <file>`: prints a baseline file readably. Exit 0, or 2 when it is missing or invalid. */
export const baselineCommand = defineCommand({
  name: 'evals baseline',
  usage: `Usage: evals baseline show <baseline.json>

Prints a baseline file: suite, when and from which commit it was taken, target and judges, and each case's
passes/trials, score, latency and cost. Baselines are written by \`evals run <case-file> --update-baseline\`.`,
  flags: { 'no-color': NO_COLOR_FLAG, help: HELP_FLAG },
  footer: 'Exit codes: 0 shown, 2 the file is missing or invalid.\n',
  async run({ given, positionals }, { help }) {
    const [action, file, ...extra] = positionals
    if (action === undefined) {
      process.stdout.write(help)
      return EXIT.couldNotRun
    }
    if (action !== 'show') {
      throw new ConfigError(
        `evals baseline: unknown action \`${action}\`; the only one is \`show\`, e.g. \`evals baseline show baselines/quickstart.json\`. ` +
          'Baselines are written by `evals run <case-file> --update-baseline`.',
      )
    }
    if (file === undefined || extra.length > 0) {
      throw new ConfigError(
        'evals baseline show: give one baseline file, e.g. `evals baseline show baselines/quickstart.json`.',
      )
    }
    // readBaseline's own message is for `evals run --baseline`, whose flags this command does not take
    if (!existsSync(file)) {
      throw new ConfigError(
        `evals baseline show: \`${file}\` does not exist. Baselines are written by \`evals run <case-file> --update-baseline\`, into \`baselines/<suite>.json\` (\`--baseline-dir\` moves them).`,
      )
    }
    const baseline = await readBaseline(file)
    const color = given['no-color'] !== true && !process.env.NO_COLOR && process.stdout.isTTY
    process.stdout.write(formatBaseline(baseline, file, makeStyle(color)))
    return EXIT.ok
  },
})

/** A baseline as text: who and what produced it, then one line per case. */
export function formatBaseline(baseline: Baseline, file: string, s: Style): string {
  const label = (text: string): string => text.padEnd(10)
  const { git } = baseline
  const commit =
    git?.commit === undefined
      ? 'no git commit'
      : `commit ${git.commit.slice(0, 12)}${git.branch === undefined ? '' : ` (${git.branch})`}`
  const judges = Object.keys(baseline.judgeSpecHashes)
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 }
  for (const entry of baseline.cases) counts[entry.status]++
  const scored = baseline.cases.filter((entry) => entry.trials > 0)
  const meanPassRate =
    scored.length === 0
      ? 'n/a'
      : `${((scored.reduce((sum, entry) => sum + entry.passes / entry.trials, 0) / scored.length) * 100).toFixed(1)}%`
  const lines = [
    `${label('Baseline')}${s.bold(baseline.suite)} ${s.dim(`· ${file} · schemaVersion ${baseline.schemaVersion}`)}`,
    `${label('Taken')}${baseline.createdAt} · ${commit}`,
    `${label('Target')}${baseline.targetId}${baseline.modelId === null ? '' : ` · model ${baseline.modelId}`}`,
    `${label('Judges')}${
      baseline.judgeModel === null && judges.length === 0
        ? 'none'
        : `${baseline.judgeModel ?? 'no model'}${judges.length > 0 ? ` · specs ${judges.join(', ')}` : ''}`
    }`,
    `${label('Cases')}${baseline.cases.length}: ${counts.passed} passed · ${counts.failed} failed · ` +
      `${counts.errored} errored · ${counts.skipped} skipped · mean pass rate ${meanPassRate}`,
    '',
  ]
  const width = Math.min(40, Math.max(0, ...baseline.cases.map((entry) => entry.id.length)))
  for (const entry of baseline.cases) {
    const color = { passed: s.green, failed: s.red, errored: s.yellow, skipped: s.dim }[entry.status]
    const score = entry.score === undefined ? '' : ` · score ${entry.score.toFixed(2)}`
    const cost = entry.costUsd === null ? 'cost unknown' : formatUsd(entry.costUsd)
    const tags = entry.tags.length > 0 ? s.dim(` [${entry.tags.join(', ')}]`) : ''
    lines.push(
      `  ${color(MARK[entry.status])} ${entry.id.padEnd(width)}  ${`${entry.passes}/${entry.trials}`.padStart(5)}` +
        `${score} ${s.dim(`· ${formatMs(entry.latencyMs)} · ${cost}`)}${tags}`,
    )
  }
  return `${lines.join('\n')}\n`
}
