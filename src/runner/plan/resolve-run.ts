import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import type { Suite } from '../../cases/suite.ts'
import { ConfigError } from '../../errors.ts'
import {
  DEFAULT_BASELINE_DIR,
  DEFAULT_CONCURRENCY,
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_STORED_CHARS,
  DEFAULT_OUT_DIR,
} from './defaults.ts'
import type { PlanFields, RunPlan } from './run-json.ts'
import type { ResolvedRun, RunOptions } from './run-settings.ts'
import { selectShard } from './shard.ts'
import { expandVariants } from './variants.ts'

/**
 * Settles a run: the front end's `options` over a resumed run's saved run.json (`options.saved`) over the case
 * files, every default applied here and nowhere else. Throws a ConfigError for options that contradict each other
 * or the saved run.
 */
export function resolveRun(allSuites: readonly Suite[], options: RunOptions): ResolvedRun {
  const { saved } = options
  checkConflicts(options, saved)
  const model = options.model ?? saved?.model
  const models = options.models ?? saved?.models
  const judgeModel = options.judge ?? options.judgeSettings?.model ?? saved?.judge
  const judgeProvider = options.judgeProvider ?? options.judgeSettings?.provider
  const { provider: _provider, ...judgeSettings } = options.judgeSettings ?? {}
  const suites = selectShard(allSuites, options.shard ?? saved?.shard)
    .flatMap((suite) => expandVariants(suite, models))
    .map((suite) =>
      settleModels(suite, model, { ...judgeSettings, ...(judgeModel && { model: judgeModel }) }),
    )
  const trials = options.trials ?? saved?.trials
  const timeoutMs = options.timeoutMs ?? saved?.timeoutMs
  const shard = options.shard ?? saved?.shard
  const baseline = options.baseline ?? saved?.baseline
  const cassettes = options.cassettes ?? saved?.cassettes
  const rateLimit = options.rateLimit ?? true
  return {
    runId: options.runId ?? newRunId(),
    outDir: options.outDir ?? DEFAULT_OUT_DIR,
    suites,
    selection: options.selection ??
      saved?.selection ?? { files: [...new Set(allSuites.map((suite) => resolve(suite.file)))] },
    ...(shard && { shard }),
    ...(model !== undefined && { model }),
    ...(models !== undefined && { models: [...models] }),
    judge: {
      ...(judgeModel !== undefined && { model: judgeModel }),
      ...(judgeProvider && { provider: judgeProvider }),
      requireJudges: options.requireJudges ?? saved?.requireJudges ?? false,
    },
    ...(trials !== undefined && { trials }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    concurrency: options.concurrency ?? saved?.concurrency ?? DEFAULT_CONCURRENCY,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    maxStoredChars: options.maxStoredChars ?? saved?.maxStoredChars ?? DEFAULT_MAX_STORED_CHARS,
    bail: options.bail ?? false,
    ...(options.signal && { signal: options.signal }),
    reporters: options.reporters ?? [],
    ...(options.targets && { targets: options.targets }),
    ...(options.aroundCase && { aroundCase: options.aroundCase }),
    recording: {
      ...(cassettes && { cassettes }),
      rateLimit: rateLimit === true ? {} : rateLimit,
    },
    gate: {
      ...(baseline && { baseline: { ...baseline, missing: baseline.missing ?? 'ok' } }),
      ...(options.updateBaseline && {
        updateBaseline: { dir: options.updateBaseline.dir, force: options.updateBaseline.force ?? false },
      }),
      failOn: options.failOn ?? saved?.failOn ?? 'failure',
    },
    snapshots: options.snapshots ?? { dir: DEFAULT_BASELINE_DIR },
    traces: { all: options.trace ?? saved?.trace ?? false, ...receiverPort(allSuites) },
    redaction: {
      patterns: [
        ...new Set([
          ...(saved?.redact ?? []),
          ...(options.redact ?? []),
          ...allSuites.flatMap((suite) => suite.redact ?? []),
        ]),
      ],
    },
    ...(options.resume && {
      resume: {
        startedAt: options.resume.startedAt,
        runMissing: options.resume.runMissing ?? true,
        ...(options.resume.warn && { warn: options.resume.warn }),
      },
    }),
  }
}

/** What `run.json` saves of a run, so `--resume` and `evals merge` resolve it again as it began. */
export function savedSettings(run: ResolvedRun, startedAt: string): Omit<PlanFields, 'runId'> {
  const { baseline } = run.gate
  return {
    startedAt,
    selection: run.selection,
    ...(run.model !== undefined && { model: run.model }),
    ...(run.models !== undefined && { models: [...run.models] }),
    ...(run.trials !== undefined && { trials: run.trials }),
    ...(run.timeoutMs !== undefined && { timeoutMs: run.timeoutMs }),
    concurrency: run.concurrency,
    ...(run.maxStoredChars !== DEFAULT_MAX_STORED_CHARS && { maxStoredChars: run.maxStoredChars }),
    ...(run.shard && { shard: run.shard }),
    ...(baseline && {
      baseline: {
        path: resolve(baseline.path),
        missing: baseline.missing,
        ...(baseline.gate && { gate: baseline.gate }),
      },
    }),
    ...(run.gate.failOn !== 'failure' && { failOn: run.gate.failOn }),
    ...(run.judge.model !== undefined && { judge: run.judge.model }),
    ...(run.judge.requireJudges && { requireJudges: true as const }),
    ...(run.redaction.patterns.length > 0 && { redact: run.redaction.patterns }),
    ...(run.recording.cassettes && { cassettes: run.recording.cassettes }),
    ...(run.traces.all && { trace: true as const }),
  }
}

/** A sortable, unique run id: `2026-01-31T12-00-00-123Z-1a2b`. */
export function newRunId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`
}

/** A suite copy with the run's model and judge settings in place of the file's (a variant's are the file's here). */
function settleModels(suite: Suite, model: string | undefined, judge: Suite['judge']): Suite {
  const judgeChanged = judge !== undefined && Object.keys(judge).length > 0
  if (model === undefined && !judgeChanged) return suite
  return {
    ...suite,
    ...(model !== undefined && { model }),
    ...(judgeChanged && { judge: { ...suite.judge, ...judge } }),
  }
}

/** The OTLP receiver's port the case files give (`trace: { port }`); two different ones cannot both be had. */
function receiverPort(suites: readonly Suite[]): { port?: number } {
  const given = suites.filter((suite) => suite.traceSettings?.port !== undefined)
  const [first, other] = [
    given[0],
    given.find((suite) => suite.traceSettings?.port !== given[0]?.traceSettings?.port),
  ]
  if (first && other)
    throw new ConfigError(
      `Two OTLP receiver ports: ${first.file} says \`trace: { port: ${String(first.traceSettings?.port)} }\` and ${other.file} says ${String(other.traceSettings?.port)}; a run has one receiver, so give the same port, or run the files apart.`,
    )
  return first?.traceSettings?.port === undefined ? {} : { port: first.traceSettings.port }
}

/** Options that cannot go together, or that would change a resumed run halfway. */
function checkConflicts(options: RunOptions, saved: RunPlan | undefined): void {
  if (options.model !== undefined && options.models !== undefined)
    throw new ConfigError('Give one `model` or several `models`, not both.')
  if (
    options.judge !== undefined &&
    options.judgeSettings?.model !== undefined &&
    options.judge !== options.judgeSettings.model
  )
    throw new ConfigError(
      `Two judge models: \`judge\` is "${options.judge}" and \`judgeSettings.model\` is "${options.judgeSettings.model}"; give one.`,
    )
  const shard = options.shard ?? saved?.shard
  if (options.updateBaseline && shard)
    throw new ConfigError(
      `\`--update-baseline\` writes whole suites, and \`--shard ${String(shard.index)}/${String(shard.count)}\` runs part of them; update the baseline from a whole run, or from \`evals merge\` of the shards.`,
    )
  if (!saved) return
  const changed = (
    [
      ['--model', options.model, saved.model],
      ['--trials', options.trials, saved.trials],
      ['--timeout', options.timeoutMs, saved.timeoutMs],
      ['--judge', options.judge, saved.judge],
    ] as const
  ).find(([, given, was]) => given !== undefined && given !== was)
  if (changed) {
    const [flag, given, was] = changed
    throw new ConfigError(
      `\`${flag}\` ${String(given)} differs from the run being continued (${was === undefined ? 'not set' : String(was)}); results of both would be mixed. Start a new run, or resume without \`${flag}\`.`,
    )
  }
}
