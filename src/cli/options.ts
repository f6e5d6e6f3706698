import { parseArgs } from 'node:util'
import type { GateOptions } from '../baselines/gate-options.ts'
import { ConfigError } from '../errors.ts'
import { DEFAULT_REPORTERS } from '../reporters/index.ts'
import { parseShard, type Shard } from '../runner/shard.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { redactPatternProblem } from '../util/redact.ts'

/** Gate flags, shared by `evals run` and `evals compare`. */
export const GATE_OPTIONS = {
  alpha: { type: 'string' },
  'max-latency-ratio': { type: 'string' },
  'max-cost-ratio': { type: 'string' },
} as const

const RUN_OPTIONS = {
  model: { type: 'string', multiple: true },
  judge: { type: 'string' },
  'require-judges': { type: 'boolean' },
  concurrency: { type: 'string' },
  filter: { type: 'string' },
  tag: { type: 'string', multiple: true },
  trials: { type: 'string' },
  timeout: { type: 'string' },
  bail: { type: 'boolean' },
  out: { type: 'string' },
  reporter: { type: 'string', multiple: true },
  record: { type: 'boolean' },
  replay: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  'update-snapshots': { type: 'boolean' },
  force: { type: 'boolean' },
  'baseline-dir': { type: 'string' },
  baseline: { type: 'string' },
  'baseline-missing': { type: 'string' },
  ...GATE_OPTIONS,
  shard: { type: 'string' },
  otel: { type: 'string' },
  redact: { type: 'string', multiple: true },
  resume: { type: 'string' },
  'resume-force': { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `evals run` flags after validation. */
export interface RunFlags {
  patterns: string[]
  model?: string
  /** several `--model`: one variant per model */
  models?: string[]
  /** judge model; overrides the files' `judge.model` */
  judge?: string
  /** @default 4, or the resumed run's */
  concurrency?: number
  /** a judged suite without a judge model cannot run (`--require-judges`) */
  requireJudges?: boolean
  filter?: string
  tags: string[]
  trials?: number
  timeoutMs?: number
  bail: boolean
  /** `--record`, `--replay` or `--replay auto` */
  cassettes?: 'record' | 'replay' | 'auto'
  outDir: string
  /**
   * reporter names or module paths, from `--reporter a,b` (repeatable): extras add to the defaults, a list naming
   * a default reporter replaces them @default console, json, junit, html
   */
  reporters: string[]
  /** write `<baselineDir>/<suite>.json` after the run (`--update-baseline`) */
  updateBaseline: boolean
  /** `--force`: write the baseline even when cases failed or errored */
  forceBaseline: boolean
  /** @default 'baselines' */
  baselineDir: string
  /** store every case's output as its snapshot in `<baselineDir>/<suite>.snapshots.json` (`--update-snapshots`) */
  updateSnapshots: boolean
  /** compare with this baseline directory or file (`--baseline`) */
  baseline?: string
  /** `ok`: a missing baseline is a notice, not an error @default 'error' */
  baselineMissing: 'error' | 'ok'
  /** gate flags given on the command line; they win over the case file's `gate:` block */
  gate: GateOptions
  /** `--shard i/n` */
  shard?: Shard
  /** `--otel <url>`: export each pair's spans to this OTLP/HTTP traces endpoint */
  otel?: string
  /** `--redact <pattern>` (repeatable): regular expressions for secrets of the user's own */
  redact?: string[]
  /** `--resume <run-dir>`: finish an interrupted run */
  resume?: string
  /** resume even when case definitions changed since the run */
  resumeForce?: boolean
  color: boolean
  help: boolean
}

/** Parses `evals run` arguments; throws a ConfigError with a did-you-mean for unknown flags and bad numbers. */
export function parseRunFlags(args: readonly string[]): RunFlags {
  let parsed
  try {
    parsed = parseArgs({
      args: withReplayMode(args),
      options: RUN_OPTIONS,
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw new ConfigError(explainParseError(error, 'evals run', Object.keys(RUN_OPTIONS)))
  }
  const { values, positionals } = parsed
  const baselineMissing = values['baseline-missing']
  if (baselineMissing !== undefined && baselineMissing !== 'ok' && baselineMissing !== 'error') {
    throw new ConfigError(
      `evals run: \`--baseline-missing\` must be \`ok\` or \`error\`, got "${baselineMissing}".`,
    )
  }
  const gate = parseGateFlags(values, 'evals run')
  checkResumeFlags(values, positionals)
  if (values.baseline === undefined) {
    const needsBaseline = [
      ...(baselineMissing === undefined ? [] : ['--baseline-missing']),
      ...Object.keys(gate).map(gateFlagOf),
    ]
    if (needsBaseline.length > 0) {
      throw new ConfigError(
        `evals run: \`${needsBaseline[0] ?? ''}\` only applies with \`--baseline <dir|file>\`, e.g. \`--baseline baselines\`.`,
      )
    }
  }
  if (
    values['baseline-dir'] !== undefined &&
    values['update-baseline'] !== true &&
    values['update-snapshots'] !== true
  ) {
    throw new ConfigError(
      'evals run: `--baseline-dir` only applies with `--update-baseline`; to compare with a baseline, use `--baseline <dir|file>`.',
    )
  }
  if (values.force === true && values['update-baseline'] !== true) {
    throw new ConfigError(
      'evals run: `--force` only applies with `--update-baseline` (to write a baseline from a run with failing cases).',
    )
  }
  if (values['update-baseline'] === true && (values.filter !== undefined || values.tag !== undefined)) {
    throw new ConfigError(
      'evals run: `--update-baseline` writes whole suites, so it cannot be combined with `--filter` or `--tag`; run the whole case file to update its baseline.',
    )
  }
  return {
    patterns: positionals,
    tags: values.tag ?? [],
    bail: values.bail ?? false,
    outDir: values.out ?? 'reports',
    reporters: reportersFlag(values.reporter),
    updateBaseline: values['update-baseline'] ?? false,
    forceBaseline: values.force ?? false,
    baselineDir: values['baseline-dir'] ?? 'baselines',
    updateSnapshots: values['update-snapshots'] ?? false,
    baselineMissing: baselineMissing ?? 'error',
    gate,
    ...defined('baseline', values.baseline),
    color: values['no-color'] !== true && !process.env.NO_COLOR,
    help: values.help ?? false,
    ...defined('model', values.model?.length === 1 ? values.model[0] : undefined),
    ...defined('models', values.model !== undefined && values.model.length > 1 ? values.model : undefined),
    ...defined('judge', values.judge),
    ...defined('filter', values.filter),
    ...defined('concurrency', positiveInteger(values.concurrency, '--concurrency')),
    ...defined('trials', positiveInteger(values.trials, '--trials')),
    ...defined('timeoutMs', positiveInteger(values.timeout, '--timeout')),
    ...defined('cassettes', cassetteMode(values.record, values.replay)),
    ...defined('shard', values.shard === undefined ? undefined : parseShard(values.shard)),
    ...defined('otel', values.otel === undefined ? undefined : otlpUrl(values.otel)),
    ...defined('resume', values.resume),
    ...defined('redact', values.redact && redactFlags(values.redact)),
    ...(values['resume-force'] === true && { resumeForce: true }),
    ...(values['require-judges'] === true && { requireJudges: true }),
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

/** Reads `--alpha`, `--max-latency-ratio` and `--max-cost-ratio`; only the flags given appear in the result. */
export function parseGateFlags(
  values: {
    alpha?: string | undefined
    'max-latency-ratio'?: string | undefined
    'max-cost-ratio'?: string | undefined
  },
  command: string,
): GateOptions {
  const alpha = number(values.alpha, '--alpha', command, (n) => n > 0 && n < 1, 'between 0 and 1 (exclusive)')
  const atLeastOne = (n: number): boolean => n >= 1
  const latency = number(
    values['max-latency-ratio'],
    '--max-latency-ratio',
    command,
    atLeastOne,
    'of at least 1',
  )
  const cost = number(values['max-cost-ratio'], '--max-cost-ratio', command, atLeastOne, 'of at least 1')
  return {
    ...defined('alpha', alpha),
    ...defined('max_latency_ratio', latency),
    ...defined('max_cost_ratio', cost),
  }
}

function gateFlagOf(key: string): string {
  return `--${key.replaceAll('_', '-')}`
}

function number(
  value: string | undefined,
  flag: string,
  command: string,
  valid: (n: number) => boolean,
  range: string,
): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || !valid(n)) {
    throw new ConfigError(`${command}: \`${flag}\` must be a number ${range}, got "${value}".`)
  }
  return n
}

/** A parseArgs error as a message with a did-you-mean; `command` is e.g. `evals run`. */
export function explainParseError(error: unknown, command: string, names: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error)
  const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1]
  if (unknown !== undefined) {
    const flags = names.map((name) => `--${name}`)
    const hint = didYouMean(unknown, flags)
    return `${command}: unknown option \`${unknown}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Run \`${command} --help\` for the options.`
  }
  const missing = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1]
  if (missing !== undefined) return `${command}: \`${missing}\` needs a value, e.g. \`${missing} 4\`.`
  return `${command}: ${message}`
}

/**
 * The reporters of `--reporter`: extras only (`markdown`, a module path) add to the defaults; a list that names a
 * default reporter (console, json, junit, html) is the whole list, e.g. `--reporter console,markdown`.
 */
export function reportersFlag(values: readonly string[] | undefined): string[] {
  const given = listFlag(values)
  if (given === undefined) return [...DEFAULT_REPORTERS]
  const defaults: readonly string[] = DEFAULT_REPORTERS
  return given.some((name) => defaults.includes(name)) ? given : [...DEFAULT_REPORTERS, ...given]
}

/** `--reporter a,b --reporter c` → [a, b, c]; undefined when not given */
export function listFlag(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined
  return values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean)
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigError(`evals run: \`${flag}\` must be a positive whole number, got "${value}".`)
  }
  return n
}

function defined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>)
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
