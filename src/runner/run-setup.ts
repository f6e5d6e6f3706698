import { join, relative } from 'node:path'
import type { Suite } from '../cases/suite.ts'
import { loadEvaluatorCompiler, type EvaluatorCompiler } from '../cases/compile-checks.ts'
import type { RunInfo } from '../model/run-report.ts'
import { createTarget } from '../targets/index.ts'
import type { Target } from '../targets/target.ts'
import { pairCount } from './plan/plan-suite.ts'
import { checkModels } from './plan/preflight.ts'
import type { ResolvedRun } from './plan/run-settings.ts'
import { SuiteSnapshots } from './results/snapshots.ts'
import { openPacingLayer, type RunServices } from './run-services.ts'
import { loadBaselines, type LoadedBaselines } from './tally/baselines.ts'
import { suiteFileKey } from './plan/variants.ts'

/** What a run holds from start to end: made before the first pair runs. */
export interface RunSetup {
  run: ResolvedRun
  services: RunServices
  /** one per suite, in the order of `run.suites` */
  targets: Target[]
  baselines: LoadedBaselines
  /** one per suite; undefined with `snapshots: false` */
  snapshots: SuiteSnapshots[] | undefined
  compile: EvaluatorCompiler
  info: RunInfo
}

/** Checks the models, loads the targets, baselines, snapshots and evaluators, and says what will run. */
export async function prepareRun(run: ResolvedRun, services: RunServices): Promise<RunSetup> {
  const { suites, snapshots: snapshotOptions } = run
  await checkModels(suites, run)
  const targets = await Promise.all(suites.map((suite) => targetFor(suite, run)))
  await openPacingLayer(services, run, targets)
  const baselines = await loadBaselines(suites, run.gate.baseline)
  const snapshots =
    snapshotOptions === false
      ? undefined
      : await Promise.all(
          suites.map((suite) => SuiteSnapshots.open(suiteFileKey(suite), snapshotOptions, services.redactor)),
        )
  // the LLM judge loads only when some case needs it
  const compile = await loadEvaluatorCompiler({ judges: suites.some((suite) => suite.cases.judged) })
  const info = runInfoOf(run, targets)
  return { run, services, targets, baselines, snapshots, compile, info }
}

function runInfoOf(run: ResolvedRun, targets: readonly Target[]): RunInfo {
  const { suites } = run
  return {
    runId: run.runId,
    startedAt: run.resume?.startedAt ?? new Date().toISOString(),
    suites: suites.map((suite, i) => ({
      name: suite.name,
      file: relative(process.cwd(), suite.file),
      targetId: targets[i]?.id ?? '',
      ...(suite.model !== undefined && { model: suite.model }),
      ...(suite.variant && { variant: suite.variant.name }),
      ...(suite.variant?.baseline === true && { baseline: true as const }),
    })),
    total: suites.reduce((sum, suite) => sum + pairCount(suite.cases, run), 0),
    concurrency: run.concurrency,
    dir: join(run.outDir, run.runId),
    ...(run.shard && { shard: run.shard }),
    failOn: run.gate.failOn,
  }
}

async function targetFor(suite: Suite, run: ResolvedRun): Promise<Target> {
  const given = run.targets?.get(suite.file)
  if (given) return given
  return createTarget(suite.target, {
    label: `${relative(process.cwd(), suite.file)}: ${suite.variant ? `variant \`${suite.variant.name}\`` : 'target'}`,
    ...(suite.model !== undefined && { model: suite.model }),
  })
}
