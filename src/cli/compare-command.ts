import { existsSync, readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { readBaseline } from '../baselines/baseline.ts'
import { compareToBaseline } from '../baselines/compare.ts'
import { evaluateGate, resolveGateOptions } from '../baselines/gate.ts'
import type { GateOptions } from '../baselines/gate-options.ts'
import { baselineCaseSchema } from '../baselines/schema.ts'
import type { RunSummary } from '../baselines/summary.ts'
import { ConfigError, EvalsError, toError } from '../errors.ts'
import { formatComparison, formatGate } from '../reporters/console-baseline.ts'
import { makeStyle } from '../reporters/format.ts'
import { EXIT } from './exit-code.ts'
import { COMPARE_HELP } from './help.ts'
import { explainParseError, GATE_OPTIONS, parseGateFlags } from './options.ts'

const COMPARE_OPTIONS = {
  ...GATE_OPTIONS,
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** What `compare` needs of a run's summary.json: each suite's meta and gate block, and the per-case summaries. */
const summarySchema = z.object({
  suiteStats: z.array(
    z.object({
      suite: z.string(),
      meta: z.object({
        suite: z.string(),
        createdAt: z.string(),
        git: z.object({ commit: z.string().optional(), branch: z.string().optional() }).optional(),
        targetId: z.string(),
        modelId: z.string().nullable(),
        judgeModel: z.string().nullable(),
        judgeSpecHashes: z.record(z.string(), z.string()),
      }),
      gateOptions: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  cases: z.array(z.object({ ...baselineCaseSchema.shape, suite: z.string() })),
})

/**
 * `evals compare <report-dir-or-summary.json> <baseline.json>`: compares a finished run with a baseline and
 * applies the gate (the run's `gate:` block under the flags). Exit 0 pass or warn, 1 gate fail, 2 unreadable input.
 */
export async function compareCommand(args: readonly string[]): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...args], options: COMPARE_OPTIONS, allowPositionals: true, strict: true })
    } catch (error) {
      throw new ConfigError(explainParseError(error, 'evals compare', Object.keys(COMPARE_OPTIONS)))
    }
    const { values, positionals } = parsed
    if (values.help === true) {
      process.stdout.write(COMPARE_HELP)
      return EXIT.ok
    }
    const [reportPath, baselinePath, ...extra] = positionals
    if (reportPath === undefined || baselinePath === undefined || extra.length > 0) {
      throw new ConfigError(
        'evals compare: give a run and a baseline, e.g. `evals compare reports/<run-id> baselines/quickstart.json`.',
      )
    }
    const flags = parseGateFlags(values, 'evals compare')
    const summaryFile = summaryFileOf(reportPath)
    const [summary, baseline] = await Promise.all([readSummary(summaryFile), readBaseline(baselinePath)])
    const suite =
      summary.suiteStats.find((entry) => entry.suite === baseline.suite) ??
      (summary.suiteStats.length === 1 ? summary.suiteStats[0] : undefined)
    if (suite === undefined) {
      throw new ConfigError(
        `evals compare: the run in \`${summaryFile}\` has no suite \`${baseline.suite}\` (the suite of \`${baselinePath}\`); ` +
          `it ran ${summary.suiteStats.map((entry) => `\`${entry.suite}\``).join(', ') || 'no suites'}.`,
      )
    }
    // the comparison reads no git info, so it is left out rather than re-shaped
    const { git: _git, ...meta } = suite.meta
    const run: RunSummary = {
      meta,
      cases: summary.cases
        .filter((entry) => entry.suite === suite.suite)
        .map(({ id, inputHash, tags, passes, trials, score, latencyMs, costUsd, status }) => ({
          id,
          inputHash,
          tags,
          passes,
          trials,
          ...(score !== undefined && { score }),
          latencyMs,
          costUsd,
          status,
        })),
    }
    const gateOptions = resolveGateOptions({ ...(suite.gateOptions as GateOptions | undefined), ...flags })
    const comparison = compareToBaseline(run, baseline, {
      maxBaselineAgeDays: gateOptions.max_baseline_age_days,
    })
    const gate = evaluateGate(comparison, run, gateOptions)
    const s = makeStyle(values['no-color'] !== true && !process.env.NO_COLOR && process.stdout.isTTY)
    const lines = [
      `${'Run'.padEnd(10)}${summaryFile} ${s.dim(`· suite ${suite.suite}`)}`,
      ...formatComparison(comparison, s, baselinePath),
      ...formatGate(gate, s),
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
    return gate.decision === 'fail' ? EXIT.failed : EXIT.ok
  } catch (error) {
    if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
    else process.stderr.write(`${toError(error).stack ?? String(error)}\n`)
    return EXIT.couldNotRun
  }
}

/** `summary.json` itself, a run directory holding it, or a reports directory (its latest run). */
function summaryFileOf(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) {
    throw new ConfigError(
      `evals compare: \`${path}\` does not exist. Give a \`reports/<run-id>\` directory or its summary.json.`,
    )
  }
  if (stat.isFile()) return path
  if (existsSync(join(path, 'summary.json'))) return join(path, 'summary.json')
  // run ids sort by time, so the last one holding a summary is the latest run
  const latest = readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(path, entry.name, 'summary.json')))
    .map((entry) => entry.name)
    .sort()
    .at(-1)
  if (latest === undefined) {
    throw new ConfigError(
      `evals compare: no summary.json in \`${path}\` or its run directories. Run \`evals run\` first.`,
    )
  }
  return join(path, latest, 'summary.json')
}

async function readSummary(file: string): Promise<z.output<typeof summarySchema>> {
  let json: unknown
  try {
    json = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new ConfigError(`evals compare: cannot read \`${file}\` as JSON (${toError(error).message}).`, {
      cause: error,
    })
  }
  const parsed = summarySchema.safeParse(json)
  if (!parsed.success) {
    throw new ConfigError(
      `evals compare: \`${file}\` has no per-case summaries (\`suiteStats\` and \`cases\`); it is not an evals run summary, ` +
        'or an older evals wrote it. Run the suite again with `evals run`.',
    )
  }
  return parsed.data
}
