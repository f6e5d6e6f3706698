import { randomBytes } from 'node:crypto'
import type { Suite } from '../cases/suite.ts'
import type { RateLimitOptions } from '../engine/rate-limit.ts'
import type { CassetteMode } from '../replay/cassette.ts'
import type { Reporter } from '../reporters/reporter.ts'
import type { Target } from '../targets/target.ts'
import type { BaselineOptions } from './tally/baselines.ts'
import { DEFAULT_CONCURRENCY, DEFAULT_GRACE_MS, DEFAULT_OUT_DIR } from './plan/defaults.ts'
import type { RunSelection } from './plan/run-json.ts'
import type { ModelOptions } from './plan/preflight.ts'
import type { CaseResult } from '../model/case-result.ts'
import type { CaseJob } from './execute/run-case.ts'
import type { Shard } from '../model/run-report.ts'
import type { SnapshotOptions } from './results/snapshots.ts'
import { selectShard } from './plan/shard.ts'
import { expandVariants } from './plan/variants.ts'

/** How a run goes. Flags given here override the case files. */
export interface RunOptions extends ModelOptions {
  /** pairs at once; with variants, per provider (each variant's provider gets its own workers) @default 4 */
  concurrency?: number
  /** per-case limit on target plus evaluators; overrides the files' `timeout` @default 60_000 */
  timeoutMs?: number
  /** stop starting cases after the first failed or errored one @default false */
  bail?: boolean
  /** runs per case; overrides the files' `trials` */
  trials?: number
  /** results go to `<outDir>/<runId>/` @default 'reports' */
  outDir?: string
  /** @default a sortable timestamp plus random suffix */
  runId?: string
  /** aborting it stops starting cases; running ones get `graceMs`, then are aborted and left out of the results */
  signal?: AbortSignal
  /** @default 2000 */
  graceMs?: number
  reporters?: readonly Reporter[]
  /** targets by suite file, to run in-process targets without a module (tests, the vitest front end) */
  targets?: ReadonlyMap<string, Target>
  /** `record` every model call to `__cassettes__/<suite>.jsonl` beside the suite, `replay` from it, or `auto` */
  cassettes?: CassetteMode
  /** adapt each provider's concurrency to its 429s (AIMD); `false` turns it off @default true */
  rateLimit?: boolean | Omit<RateLimitOptions, 'maxConcurrency'>
  /** compare each suite with its baseline and apply the gate (`--baseline`); read before anything runs */
  baseline?: BaselineOptions
  /**
   * after a run that was not stopped early, write each suite's baseline to `<dir>/<suite>.json`
   * (`--update-baseline`); a run with failed or errored pairs is not a good run and is written only with `force`
   */
  updateBaseline?: { dir: string; force?: boolean }
  /**
   * where `<suite>.snapshots.json` files are and whether to accept the current outputs (`--update-snapshots`);
   * `false` ignores snapshots @default { dir: 'baselines' }
   */
  snapshots?: SnapshotOptions | false
  /** run only this shard's cases (`--shard i/n`), chosen by a hash of suite and case id */
  shard?: Shard
  /** the case files and selection flags, recorded in `run.json` for `--resume` and `evals merge` */
  selection?: RunSelection
  /**
   * continue the run in `<outDir>/<runId>`: the pairs already in its results.jsonl count and are never run again;
   * a torn last line or a repeated row is dropped with a warning. `runMissing: false` only aggregates (merge).
   */
  resume?: { startedAt: string; runMissing?: boolean; warn?: (message: string) => void }
  /** runs each pair inside this wrapper (`--otel` opens a trace per pair here) */
  aroundCase?: (job: CaseJob, run: () => Promise<CaseResult>) => Promise<CaseResult>
  /** regular expressions for the user's own secrets (`--redact`), added to the suites' `redact:` patterns */
  redact?: readonly string[]
  /** several models to compare (`--model a --model b`): each is a variant named after it, instead of the files' `variants:` */
  models?: readonly string[]
}

/**
 * RunOptions with every default applied and the suites the run walks: sharded, then one copy per variant. Made
 * once, by `resolveRunOptions`, when the run starts; every later step reads only this.
 */
export interface ResolvedRunOptions extends RunOptions {
  concurrency: number
  graceMs: number
  outDir: string
  runId: string
  /** the shard's suites, each once per variant (`Suite.variant` set, its overrides applied) */
  suites: Suite[]
}

/** Applies the defaults to `options` and expands `suites` into what the run walks. */
export function resolveRunOptions(suites: readonly Suite[], options: RunOptions): ResolvedRunOptions {
  return {
    ...options,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    outDir: options.outDir ?? DEFAULT_OUT_DIR,
    runId: options.runId ?? newRunId(),
    suites: selectShard(suites, options.shard).flatMap((suite) => expandVariants(suite, options.models)),
  }
}

/** A sortable, unique run id: `2026-01-31T12-00-00-123Z-1a2b`. */
export function newRunId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`
}
