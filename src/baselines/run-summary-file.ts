import { existsSync, readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { z } from 'zod'
import { ConfigError, toError } from '../errors.ts'
import type { GateOptions } from './gate-options.ts'
import { baselineCaseSchema } from './schema.ts'
import type { Baseline } from './schema.ts'
import { baselineFromSummaries, type RunSummary } from './summary.ts'

/** What a comparison needs of a run's summary.json: each suite's meta and gate block, and the per-case summaries. */
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
  cases: z.array(
    z.object({
      ...baselineCaseSchema.shape,
      suite: z.string(),
      weight: z.number().nonnegative().optional(),
      critical: z.object({ minPassRate: z.number().optional() }).optional(),
      expectFail: z.union([z.literal(true), z.string()]).optional(),
    }),
  ),
})

/** A run's summary.json as comparisons read it. */
export type RunSummaryFile = z.output<typeof summarySchema>

/** One suite of a finished run: what is compared, and the case file's `gate:` block. */
export interface SuiteRun {
  suite: string
  run: RunSummary
  gateOptions: GateOptions | undefined
}

/** True when `path` names a run rather than a baseline file: a directory, or a file named summary.json. */
export function isRunPath(path: string): boolean {
  return (
    basename(path) === 'summary.json' || statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
  )
}

/**
 * `summary.json` itself, a run directory holding it, or a reports directory (its latest run). `label` starts each
 * error message, e.g. `evals compare`.
 */
export function summaryFileOf(path: string, label: string): string {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) {
    throw new ConfigError(
      `${label}: \`${path}\` does not exist. Give a \`reports/<run-id>\` directory or its summary.json.`,
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
      `${label}: no summary.json in \`${path}\` or its run directories. Run \`evals run\` first.`,
    )
  }
  return join(path, latest, 'summary.json')
}

/** Reads and checks a run's summary.json; a ConfigError names the file when it is not one. */
export async function readRunSummary(file: string, label: string): Promise<RunSummaryFile> {
  let json: unknown
  try {
    json = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new ConfigError(`${label}: cannot read \`${file}\` as JSON (${toError(error).message}).`, {
      cause: error,
    })
  }
  const parsed = summarySchema.safeParse(json)
  if (!parsed.success) {
    throw new ConfigError(
      `${label}: \`${file}\` has no per-case summaries (\`suiteStats\` and \`cases\`); it is not an evals run summary, ` +
        'or an older evals wrote it. Run the suite again with `evals run`.',
    )
  }
  return parsed.data
}

/** The suite named `suite` of a run, or its only suite; undefined when there is no such suite. */
export function suiteRunOf(summary: RunSummaryFile, suite: string | undefined): SuiteRun | undefined {
  const entry =
    summary.suiteStats.find((stats) => stats.suite === suite) ??
    (summary.suiteStats.length === 1 ? summary.suiteStats[0] : undefined)
  if (entry === undefined) return undefined
  const { git, ...meta } = entry.meta
  return {
    suite: entry.suite,
    run: {
      meta: { ...meta, ...(git && { git: definedOnly(git) }) },
      cases: summary.cases
        .filter((stats) => stats.suite === entry.suite)
        .map(({ id, inputHash, tags, passes, trials, score, latencyMs, costUsd, status, ...settings }) => ({
          id,
          inputHash,
          tags,
          passes,
          trials,
          ...(score !== undefined && { score }),
          latencyMs,
          costUsd,
          status,
          ...(settings.weight !== undefined && { weight: settings.weight }),
          ...(settings.critical && { critical: definedOnly(settings.critical) }),
          ...(settings.expectFail !== undefined && { expectFail: settings.expectFail }),
        })),
    },
    gateOptions: entry.gateOptions as GateOptions | undefined,
  }
}

/** A run's suite in the shape of a baseline, so any earlier run can be the reference of a comparison. */
export function baselineOfRun(suiteRun: SuiteRun): Baseline {
  return baselineFromSummaries(suiteRun.run.meta, suiteRun.run.cases)
}

function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>
  }
}
