import { MAX_TRIALS } from '../cases/schema.ts'
import type { GateOptions } from '../baselines/gate-options.ts'
import { ConfigError } from '../errors.ts'
import {
  DEFAULT_BASELINE_DIR,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_STORED_CHARS,
  DEFAULT_OUT_DIR,
  DEFAULT_TIMEOUT_MS,
} from '../runner/plan/defaults.ts'
import { parseShard } from '../runner/plan/shard.ts'
import { redactPatternProblem } from '../util/redact.ts'
import { HELP_FLAG, parseFlags, type FlagsOf, type FlagTable } from './flag-table.ts'
import {
  baselineMissingFlag,
  failOnFlag,
  GATE_FLAGS,
  gateFlagOf,
  NO_COLOR_FLAG,
  parseGateFlags,
  REPORTER_FLAG,
} from './shared-flags.ts'
import { formatCount } from '../util/format-count.ts'

const GATE_SECTION = 'Baselines and the regression gate'

/** The flags of `evals run`: the parser, `--help` and `RunFlags` all come from here. */
export const RUN_FLAGS = {
  model: {
    type: 'string',
    value: '<provider:model>',
    multiple: true,
    key: false,
    description: [
      "model for agent targets; overrides the files' `model:` (e.g. openai:gpt-4.1-mini);",
      'repeat it to compare models: each runs every case as a variant',
    ],
  },
  judge: {
    type: 'string',
    value: '<provider:model>',
    passOn: true,
    description: "model for LLM-judge checks; overrides the files' `judge.model`",
  },
  'require-judges': {
    type: 'boolean',
    passOn: true,
    description: [
      'a suite with LLM judges but no judge model cannot run (exit 2), instead of passing',
      'its cases on the other checks only (`partial`); as `gate: { require_judges: true }`',
    ],
  },
  concurrency: {
    type: 'string',
    value: '<n>',
    parse: positiveInteger,
    passOn: true,
    description: `case runs at once (default ${String(DEFAULT_CONCURRENCY)})`,
  },
  filter: {
    type: 'string',
    value: '<pattern>',
    description: 'only case ids matching; `*` is a wildcard, otherwise a substring',
  },
  tag: {
    type: 'string',
    value: '<tag>',
    multiple: true,
    default: [],
    key: 'tags',
    description: 'only cases with this tag; repeat for any of several',
  },
  trials: {
    type: 'string',
    value: '<n>',
    parse: trialCount,
    passOn: true,
    description: "runs per case; overrides the files' `trials:`",
  },
  timeout: {
    type: 'string',
    value: '<ms>',
    key: 'timeoutMs',
    parse: positiveInteger,
    passOn: true,
    description: `per-case limit on target plus checks (default ${String(DEFAULT_TIMEOUT_MS)})`,
  },
  'max-stored-chars': {
    type: 'string',
    value: '<n>',
    key: 'maxStoredChars',
    parse: positiveInteger,
    passOn: true,
    description: [
      'the longest text a result stores (output, messages, tool results; default',
      `${formatCount(DEFAULT_MAX_STORED_CHARS)}); longer text is cut with a marker, the checks see all of it`,
    ],
  },
  bail: {
    type: 'boolean',
    default: false,
    description: 'stop starting cases after the first failed or errored one',
  },
  out: {
    type: 'string',
    value: '<dir>',
    default: DEFAULT_OUT_DIR,
    key: 'outDir',
    description: `where \`<run-id>/\` with results and reports goes (default ${DEFAULT_OUT_DIR})`,
  },
  reporter: REPORTER_FLAG,
  record: {
    type: 'boolean',
    key: false,
    description: 'call models live and save every call to `__cassettes__/<suite>.jsonl` beside the suite',
  },
  replay: {
    type: 'string',
    value: '[auto]',
    key: false,
    description: [
      'serve model calls from the cassette, no API key needed; a miss makes the case errored',
      'with a diff; `auto` calls and records the misses',
    ],
  },
  shard: {
    type: 'string',
    value: '<i/n>',
    parse: parseShard,
    passOn: true,
    description: [
      "run only shard i of n (1-based); a case's shard comes from a hash of suite and case",
      'id, so it is the same on every machine; join the shards with `evals merge`',
    ],
  },
  trace: {
    type: 'boolean',
    passOn: true,
    description: [
      "capture every case's OpenTelemetry spans into its transcript (tool calls, model calls,",
      'usage, cost) and the report; a case file turns it on with `trace: true`',
    ],
  },
  otel: {
    type: 'string',
    value: '<url>',
    parse: otlpUrl,
    description: [
      'export OpenTelemetry spans (one trace per case: agent runs, model and tool calls) to',
      'an OTLP/HTTP traces endpoint, e.g. http://localhost:4318/v1/traces',
    ],
  },
  resume: {
    type: 'string',
    value: '<run-dir>',
    description: [
      'finish an interrupted run (`reports/<run-id>`): run only the (case, trial) pairs',
      'missing from its results.jsonl, with the files and flags saved in its run.json',
    ],
  },
  'resume-force': {
    type: 'boolean',
    description: 'resume even though case definitions changed since the run',
  },
  redact: {
    type: 'string',
    value: '<pattern>',
    multiple: true,
    parse: redactFlags,
    passOn: true,
    description: [
      'a regular expression for secrets of your own, replaced by [redacted] in every file',
      'and in the console, like keys and `*_API_KEY`/`*_TOKEN` values; repeatable',
    ],
  },
  'update-baseline': {
    type: 'boolean',
    default: false,
    section: GATE_SECTION,
    description: [
      'after a complete run, write `<baseline-dir>/<suite>.json` (atomically; commit it) for',
      'each suite with no failed or errored case (`expect_fail` cases aside), naming the',
      'suites skipped; a file whose results are the same is left as it is',
    ],
  },
  force: {
    type: 'boolean',
    default: false,
    key: 'forceBaseline',
    section: GATE_SECTION,
    description: 'with --update-baseline: write every suite, failing cases and unchanged results too',
  },
  'baseline-dir': {
    type: 'string',
    value: '<dir>',
    default: DEFAULT_BASELINE_DIR,
    section: GATE_SECTION,
    description: `where --update-baseline writes (default ${DEFAULT_BASELINE_DIR})`,
  },
  'update-snapshots': {
    type: 'boolean',
    default: false,
    section: GATE_SECTION,
    description: "store every case's output as its snapshot, `<baseline-dir>/<suite>.snapshots.json`",
  },
  baseline: {
    type: 'string',
    value: '<dir|file>',
    section: GATE_SECTION,
    description: 'compare with `<dir>/<suite>.json` (or one file) and apply the gate',
  },
  'baseline-missing': { ...baselineMissingFlag('evals run'), section: GATE_SECTION },
  'fail-on': { ...failOnFlag('evals run'), passOn: true, section: GATE_SECTION },
  'strict-critical': { ...GATE_FLAGS['strict-critical'], section: GATE_SECTION },
  alpha: { ...GATE_FLAGS.alpha, section: GATE_SECTION },
  'max-latency-ratio': { ...GATE_FLAGS['max-latency-ratio'], section: GATE_SECTION },
  'max-cost-ratio': {
    ...GATE_FLAGS['max-cost-ratio'],
    section: GATE_SECTION,
    description: [
      GATE_FLAGS['max-cost-ratio'].description,
      "The gate flags win over the case file's `gate:` block.",
    ],
  },
  'no-color': { ...NO_COLOR_FLAG, section: GATE_SECTION, description: 'plain text (NO_COLOR works too)' },
  help: { ...HELP_FLAG, section: GATE_SECTION },
} as const satisfies FlagTable

/** `evals run` flags after validation: the table's flags, plus what several flags make together. */
export type RunFlags = FlagsOf<typeof RUN_FLAGS> & {
  /** the case files and globs */
  patterns: string[]
  /** one `--model` */
  model?: string
  /** several `--model`: one variant per model */
  models?: string[]
  /** gate flags given on the command line; they win over the case file's `gate:` block */
  gate: GateOptions
  /** `--record`, `--replay` or `--replay auto` */
  cassettes?: 'record' | 'replay' | 'auto'
  color: boolean
  help: boolean
}

/** Parses `evals run` arguments; throws a ConfigError with a did-you-mean for unknown flags and bad values. */
export function parseRunFlags(args: readonly string[]): RunFlags {
  const { flags, given, positionals } = parseFlags('evals run', RUN_FLAGS, withReplayMode(args))
  const gate = parseGateFlags(given, 'evals run')
  checkResumeFlags(given, positionals)
  if (given.baseline === undefined) {
    const needsBaseline = [
      ...(given['baseline-missing'] === undefined ? [] : ['--baseline-missing']),
      ...Object.keys(gate).map(gateFlagOf),
    ]
    if (needsBaseline.length > 0) {
      throw new ConfigError(
        `evals run: \`${needsBaseline[0] ?? ''}\` only applies with \`--baseline <dir|file>\`, e.g. \`--baseline baselines\`.`,
      )
    }
  }
  if (
    given['baseline-dir'] !== undefined &&
    given['update-baseline'] !== true &&
    given['update-snapshots'] !== true
  ) {
    throw new ConfigError(
      'evals run: `--baseline-dir` only applies with `--update-baseline`; to compare with a baseline, use `--baseline <dir|file>`.',
    )
  }
  if (given.force === true && given['update-baseline'] !== true) {
    throw new ConfigError(
      'evals run: `--force` only applies with `--update-baseline` (to write a baseline from a run with failing cases).',
    )
  }
  if (given['update-baseline'] === true && (given.filter !== undefined || given.tag !== undefined)) {
    throw new ConfigError(
      'evals run: `--update-baseline` writes whole suites, so it cannot be combined with `--filter` or `--tag`; run the whole case file to update its baseline.',
    )
  }
  const cassettes = cassetteMode(given.record, given.replay)
  return {
    ...flags,
    patterns: positionals,
    gate,
    ...(cassettes !== undefined && { cassettes }),
    ...modelFlags(given.model),
    color: given['no-color'] !== true && !process.env.NO_COLOR,
    help: given.help === true,
  }
}

function otlpUrl(value: string): string {
  if (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value
  throw new ConfigError(
    `evals run: \`--otel\` takes an OTLP/HTTP traces URL such as http://localhost:4318/v1/traces, got "${value}".`,
  )
}

function redactFlags(patterns: string[]): string[] {
  for (const pattern of patterns) {
    const problem = redactPatternProblem(pattern)
    if (problem !== undefined) throw new ConfigError(`evals run: \`--redact\`: ${problem}.`)
  }
  return patterns
}

/** `--resume` takes the case files and the selection from the run's run.json, so they cannot be given again. */
function checkResumeFlags(
  values: { resume?: string | undefined; 'resume-force'?: boolean | undefined } & Record<string, unknown>,
  positionals: readonly string[],
): void {
  if (values.resume === undefined) {
    if (values['resume-force'] === true) {
      throw new ConfigError('evals run: `--resume-force` only applies with `--resume <run-dir>`.')
    }
    return
  }
  const saved = ['filter', 'tag', 'trials', 'model', 'shard', 'timeout', 'out'].filter(
    (name) => values[name] !== undefined,
  )
  if (positionals.length > 0 || saved.length > 0) {
    const given = positionals.length > 0 ? 'case files' : `\`--${saved[0] ?? ''}\``
    throw new ConfigError(
      `evals run: \`--resume\` takes the case files, selection, model, trials, timeout and shard from the run's run.json; drop ${given}.`,
    )
  }
}
function positiveInteger(value: string, flag: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigError(`evals run: \`${flag}\` must be a positive whole number, got "${value}".`)
  }
  return n
}

function trialCount(value: string, flag: string): number {
  const n = positiveInteger(value, flag)
  if (n > MAX_TRIALS)
    throw new ConfigError(`evals run: \`${flag}\` is at most ${formatCount(MAX_TRIALS)}, got "${value}".`)
  return n
}

/** `--replay` takes an optional `auto`: a bare `--replay` becomes `--replay=strict` for parseArgs. */
function withReplayMode(args: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg !== '--replay') out.push(arg)
    else if (args[i + 1] === 'auto') out.push(`--replay=${args[++i] ?? ''}`)
    else out.push('--replay=strict')
  }
  return out
}

function cassetteMode(
  record: boolean | undefined,
  replay: string | undefined,
): RunFlags['cassettes'] | undefined {
  if (replay !== undefined && replay !== 'strict' && replay !== 'auto') {
    throw new ConfigError(`evals run: \`--replay\` takes no value or \`auto\`, got "${replay}".`)
  }
  if (record === true && replay !== undefined) {
    throw new ConfigError(
      'evals run: give `--record` or `--replay`, not both; `--replay auto` records what the cassette misses.',
    )
  }
  if (record === true) return 'record'
  if (replay === undefined) return undefined
  return replay === 'auto' ? 'auto' : 'replay'
}

/** One `--model` overrides the files' model; several make one variant per model. */
function modelFlags(models: string[] | undefined): Pick<RunFlags, 'model' | 'models'> {
  if (models === undefined || models.length === 0) return {}
  return models.length === 1 ? { model: models[0] as string } : { models }
}
