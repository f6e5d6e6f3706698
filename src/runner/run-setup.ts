import { join, relative } from 'node:path'
import type { Suite } from '../cases/suite.ts'
import { loadEvaluatorCompiler, type EvaluatorCompiler } from '../cases/compile-checks.ts'
import type { RateLimiters } from '../engine/rate-limit.ts'
import type { RunInfo } from '../model/run-report.ts'
import type { CassetteSet } from '../replay/cassettes.ts'
import { createTarget } from '../targets/index.ts'
import type { Target } from '../targets/target.ts'
import { loadBaselines, type LoadedBaselines } from './tally/baselines.ts'
import { pairCount } from './plan/plan-suite.ts'
import { checkModels } from './plan/preflight.ts'
import type { ResolvedRunOptions, RunOptions } from './run-options.ts'
import { SuiteSnapshots } from './results/snapshots.ts'
import { suiteFileKey } from './plan/variants.ts'

/** What every pair's model calls share: the cassettes and the per-provider rate limiters. */
export interface CallServices {
  cassettes?: CassetteSet
  limiters: RateLimiters | undefined
}

/** What a run holds from start to end: made before the first pair runs. */
export interface RunSetup {
  options: ResolvedRunOptions
  services: CallServices
  /** one per suite, in the order of `options.suites` */
  targets: Target[]
  baselines: LoadedBaselines
  /** one per suite; undefined with `snapshots: false` */
  snapshots: SuiteSnapshots[] | undefined
  compile: EvaluatorCompiler
  info: RunInfo
}

/** Checks the models, loads the targets, baselines, snapshots and evaluators, and says what will run. */
export async function prepareRun(options: ResolvedRunOptions, services: CallServices): Promise<RunSetup> {
  const { suites } = options
  await checkModels(suites, options)
  const targets = await Promise.all(suites.map((suite) => targetFor(suite, options)))
  const baselines = await loadBaselines(suites, options.baseline)
  const snapshots =
    options.snapshots === false
      ? undefined
      : await Promise.all(
          suites.map((suite) =>
            SuiteSnapshots.open(suiteFileKey(suite), options.snapshots || { dir: 'baselines' }),
          ),
        )
  // the LLM judge loads only when some case needs it
  const compile = await loadEvaluatorCompiler({ judges: suites.some((suite) => suite.cases.judged) })
  const info = runInfoOf(options, targets)
  return { options, services, targets, baselines, snapshots, compile, info }
}

function runInfoOf(options: ResolvedRunOptions, targets: readonly Target[]): RunInfo {
  const { suites } = options
  return {
    runId: options.runId,
    startedAt: options.resume?.startedAt ?? new Date().toISOString(),
    suites: suites.map((suite, i) => ({
      name: suite.name,
      file: relative(process.cwd(), suite.file),
      targetId: targets[i]?.id ?? '',
      ...modelOf(suite, options),
      ...(suite.variant && { variant: suite.variant.name }),
      ...(suite.variant?.baseline === true && { baseline: true as const }),
    })),
    total: suites.reduce((sum, suite) => sum + pairCount(suite.cases, options), 0),
    concurrency: options.concurrency,
    dir: join(options.outDir, options.runId),
    ...(options.shard && { shard: options.shard }),
  }
}

async function targetFor(suite: Suite, options: RunOptions): Promise<Target> {
  const given = options.targets?.get(suite.file)
  if (given) return given
  return createTarget(suite.target, {
    label: `${relative(process.cwd(), suite.file)}: ${suite.variant ? `variant \`${suite.variant.name}\`` : 'target'}`,
    ...modelOf(suite, options),
  })
}

/** The model a suite runs with: `--model`, else the suite's (a variant's copy has its variant's). */
export function modelOf(suite: Suite, options: RunOptions): { model?: string } {
  const model = options.model ?? suite.model
  return model === undefined ? {} : { model }
}
