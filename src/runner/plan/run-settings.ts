import type { GateOptions } from '../../baselines/gate-options.ts'
import type { FailOn } from '../../baselines/outcome.ts'
import type { Suite } from '../../cases/suite.ts'
import type { RateLimitOptions } from '../../engine/rate-limit.ts'
import type { JudgeOptions } from '../../evaluators/llm-judge-options.ts'
import type { CaseResult } from '../../model/case-result.ts'
import type { Shard } from '../../model/run-report.ts'
import type { Provider } from '../../providers/provider.ts'
import type { CassetteMode } from '../../replay/cassette.ts'
import type { Reporter } from '../../reporters/reporter.ts'
import type { Target } from '../../targets/target.ts'
import type { SnapshotOptions } from '../results/snapshots.ts'
import type { RunPlan, RunSelection } from './run-json.ts'

/** Comparing each suite with its baseline (`--baseline`) and applying the gate. */
export interface BaselineOptions {
  /** a directory of `<suite>.json` baselines, or one baseline file when the run has one suite */
  path: string
  /**
   * `ok`: a suite whose baseline file does not exist (a new suite, a first run) runs ungated, with a warning, and
   * the others stay gated; `error` stops the run before anything runs (strict) @default 'ok'
   */
  missing?: 'error' | 'ok'
  /** gate settings that win over the case files' `gate:` blocks (the CLI flags) */
  gate?: GateOptions
  /** the clock the baseline's age is measured at @default new Date() */
  now?: Date
}

/** Which pair a wrapper around it runs. */
export interface PairId {
  suite: string
  variant?: string | undefined
  caseId: string
  trial: number
}

/**
 * How a run goes, as a front end asks for it (the CLI's flags, `describeSuite`'s options, the Action's inputs, the
 * library API). Flags given here win over the case files; `resolveRun` settles everything into a `ResolvedRun`.
 */
export interface RunOptions {
  /** model for agent targets; overrides the suites' `model:` */
  model?: string
  /** several models to compare (`--model a --model b`): each is a variant named after it, instead of the files' `variants:` */
  models?: readonly string[]
  /** judge model for LLM-judge checks; overrides the suites' `judge.model` (`--judge`) */
  judge?: string
  /** judge settings over every suite's `judge:` (`describeSuite`'s `judge`); `judge` wins for the model */
  judgeSettings?: JudgeOptions
  /** used for every judge call instead of resolving a judge model (scripted judges in tests) */
  judgeProvider?: Provider
  /** a suite with LLM judges but no judge model cannot run, as `gate: { require_judges: true }` (`--require-judges`) */
  requireJudges?: boolean
  /** pairs at once; with variants, per provider (each variant's provider gets its own workers) @default 4 */
  concurrency?: number
  /** per-case limit on target plus evaluators; overrides the files' `timeout_ms` @default 60_000 */
  timeoutMs?: number
  /** stop starting cases after the first failed or errored one @default false */
  bail?: boolean
  /** the longest string a result stores (outputs, messages, tool results); longer ones are cut with a marker, the checks see them whole @default 1_000_000 */
  maxStoredChars?: number
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
   * what fails the run (`--fail-on`, the Action's words): `failure` a failed gate or case, `regression` only a
   * failed gate, `never` only a run where no case ran; errored cases always exit 2 @default 'failure'
   */
  failOn?: FailOn
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
  /** the run.json of the run being continued (`resumeRun`, `evals merge`): its saved settings apply under these options */
  saved?: RunPlan
  /** runs each pair inside this wrapper (`--otel` opens a trace per pair here); it gets the result redacted */
  aroundCase?: (pair: PairId, run: () => Promise<CaseResult>) => Promise<CaseResult>
  /** regular expressions for the user's own secrets (`--redact`), added to the suites' `redact:` patterns */
  redact?: readonly string[]
  /**
   * capture every case's OpenTelemetry spans into its transcript (`--trace`), as a case file's `trace: true`
   * does for its cases @default false
   */
  trace?: boolean
}

/**
 * Every setting of a run, decided: made once, by `resolveRun`, from the front end's options, the case files and a
 * resumed run's run.json; every later step reads only this. Where a setting lives:
 *
 * - what runs: `suites` (sharded, one copy per variant, each with its model and judge settled), `selection`,
 *   `shard`, `trials` / `timeoutMs` (flags over the files, see `planSuite`), `models`;
 * - how: `concurrency`, `graceMs`, `bail`, `signal`, `recording` (cassettes, rate limits), `traces`, `targets`,
 *   `aroundCase`;
 * - what it is compared with: `gate` (baseline, baseline update; the home of further gate settings);
 * - what it writes: `runId`, `outDir`, `reporters`, `snapshots`, `redaction`;
 * - `resume`: the run continued, its first start.
 */
export interface ResolvedRun {
  runId: string
  outDir: string
  /** the shard's suites, each once per variant (`Suite.variant` set), with `--model` and the judge settings applied */
  suites: Suite[]
  selection: RunSelection
  shard?: Shard
  /** `--model` as given, to tell where a suite's model came from (it is applied to `suites`) */
  model?: string
  models?: string[]
  /** the run-wide judge settings (`--judge`, `describeSuite`'s `judge`), applied to `suites`; `provider` answers every judge call */
  judge: { model?: string; provider?: Provider; requireJudges: boolean }
  trials?: number
  timeoutMs?: number
  concurrency: number
  graceMs: number
  maxStoredChars: number
  bail: boolean
  signal?: AbortSignal
  reporters: readonly Reporter[]
  targets?: ReadonlyMap<string, Target>
  aroundCase?: RunOptions['aroundCase']
  recording: {
    cassettes?: CassetteMode
    /** per-provider adaptive concurrency; false when off */
    rateLimit: false | Omit<RateLimitOptions, 'maxConcurrency'>
  }
  gate: {
    /** `missing` settled: `ok` unless asked for `error` */
    baseline?: BaselineOptions & { missing: 'error' | 'ok' }
    updateBaseline?: { dir: string; force: boolean }
    /** what fails the run; the report carries it, so its exit code and outcome line follow it */
    failOn: FailOn
  }
  snapshots: SnapshotOptions | false
  /** every pattern the run redacts: `--redact`, the suites' `redact:`, and a resumed run's saved ones, checked */
  redaction: { patterns: string[] }
  resume?: { startedAt: string; runMissing: boolean; warn?: (message: string) => void }
  /**
   * trace capture: `all` for every case (`--trace`), else the cases whose file says `trace: true`; `port` of the
   * OTLP receiver when a case file gives one (`trace: { port }`)
   */
  traces: { all: boolean; port?: number }
}
