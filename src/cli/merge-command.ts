import { parseArgs } from 'node:util'
import { ConfigError, EvalsError } from '../errors.ts'
import { createReporters } from '../reporters/index.ts'
import { mergeRuns } from '../runner/merge.ts'
import { exitCodeOf } from './exit-code.ts'
import { MERGE_HELP } from './help.ts'
import { explainParseError, GATE_OPTIONS, parseGateFlags, reportersFlag } from './options.ts'

const MERGE_OPTIONS = {
  out: { type: 'string' },
  reporter: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  'baseline-missing': { type: 'string' },
  ...GATE_OPTIONS,
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `evals merge <run-dir|summary.json…>`: joins shard runs into one run, its reports, and the run's exit code. */
export async function mergeCommand(args: readonly string[]): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...args], options: MERGE_OPTIONS, allowPositionals: true, strict: true })
    } catch (error) {
      throw new ConfigError(explainParseError(error, 'evals merge', Object.keys(MERGE_OPTIONS)))
    }
    const { values, positionals } = parsed
    if (values.help === true) {
      process.stdout.write(MERGE_HELP)
      return 0
    }
    const missing = values['baseline-missing']
    if (missing !== undefined && missing !== 'ok' && missing !== 'error') {
      throw new ConfigError(
        `evals merge: \`--baseline-missing\` must be \`ok\` or \`error\`, got "${missing}".`,
      )
    }
    const gate = parseGateFlags(values, 'evals merge')
    if (values.baseline === undefined && (missing !== undefined || Object.keys(gate).length > 0)) {
      throw new ConfigError('evals merge: the gate flags only apply with `--baseline <dir|file>`.')
    }
    const files: string[] = []
    const reporters = await createReporters(reportersFlag(values.reporter), {
      color: values['no-color'] !== true && !process.env.NO_COLOR && process.stdout.isTTY,
      files,
    })
    const report = await mergeRuns(positionals, {
      ...(values.out === undefined ? {} : { out: values.out }),
      ...(values.baseline !== undefined && {
        baseline: { path: values.baseline, missing: missing ?? 'error', gate },
      }),
      reporters,
      warn: (message) => process.stderr.write(`Warning: ${message}\n`),
    })
    process.stdout.write(`Merged    ${report.dir}\n`)
    for (const file of files) process.stdout.write(`${' '.repeat(10)}${file}\n`)
    return exitCodeOf(report)
  } catch (error) {
    if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
    else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 2
  }
}
