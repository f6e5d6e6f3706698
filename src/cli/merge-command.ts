import { ConfigError } from '../errors.ts'
import { createReporters, DEFAULT_REPORTERS } from '../reporters/index.ts'
import { mergeRuns } from '../runner/merge.ts'
import { defineCommand } from './command.ts'
import { exitCodeOf, outcomeLine } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'
import { EXIT_CODES } from './help.ts'
import {
  baselineMissingFlag,
  failOnFlag,
  GATE_FLAGS,
  NO_COLOR_FLAG,
  parseGateFlags,
  REPORTER_FLAG,
} from './shared-flags.ts'

/** `evals merge <run-dir|summary.json…>`: joins shard runs into one run, its reports, and the run's exit code. */
export const mergeCommand = defineCommand({
  name: 'evals merge',
  usage: `Usage: evals merge <run-dir | summary.json…> [options]

Joins the runs of one \`evals run --shard i/n\` split into one run directory: one results.jsonl, run.json and
summary.json, with aggregates, baseline comparison and gate recomputed from the rows, and the usual reports.
Refuses runs of different suites, overlapping or missing shards and case files changed since the runs.`,
  flags: {
    out: {
      type: 'string',
      value: '<dir>',
      description: 'the merged run directory (default: a new run id beside the first run)',
    },
    reporter: {
      ...REPORTER_FLAG,
      description: [
        `console, json, junit, html, markdown or a module path (default ${DEFAULT_REPORTERS.join(',')});`,
        'markdown and modules add to the defaults, as in `evals run`',
      ],
    },
    baseline: {
      type: 'string',
      value: '<dir|file>',
      description: "compare the merged run with a baseline and apply the gate (default: the shards' own)",
    },
    'allow-missing-shards': {
      type: 'boolean',
      description:
        'merge although shards of the split are missing; their cases count as not run (default: exit 2)',
    },
    'baseline-missing': {
      ...baselineMissingFlag('evals merge'),
      description:
        'a suite without a baseline runs ungated with a warning (`ok`), or stops the merge (`error`)',
    },
    ...GATE_FLAGS,
    'fail-on': failOnFlag('evals merge'),
    'no-color': NO_COLOR_FLAG,
    help: HELP_FLAG,
  },
  footer: EXIT_CODES,
  async run({ flags, given, positionals }) {
    const gate = parseGateFlags(given, 'evals merge')
    if (
      flags.baseline === undefined &&
      (given['baseline-missing'] !== undefined || Object.keys(gate).length > 0)
    ) {
      throw new ConfigError('evals merge: the gate flags only apply with `--baseline <dir|file>`.')
    }
    const files: string[] = []
    const reporters = await createReporters(flags.reporters, {
      color: given['no-color'] !== true && !process.env.NO_COLOR && process.stdout.isTTY,
      files,
      // the summary's Duration is the command's wall time, from the start of the process
      commandStartMs: 0,
    })
    const report = await mergeRuns(positionals, {
      ...(flags.out === undefined ? {} : { out: flags.out }),
      ...(flags.baseline !== undefined && {
        baseline: { path: flags.baseline, missing: flags.baselineMissing, gate },
      }),
      ...(flags.failOn !== undefined && { failOn: flags.failOn }),
      reporters,
      allowMissingShards: flags.allowMissingShards === true,
      warn: (message) => process.stderr.write(`Warning: ${message}\n`),
    })
    process.stdout.write(`Merged    ${report.dir}\n`)
    for (const file of files) process.stdout.write(`${' '.repeat(10)}${file}\n`)
    process.stdout.write(`${outcomeLine(report)}\n`)
    return exitCodeOf(report)
  },
})
