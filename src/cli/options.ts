import { parseArgs } from 'node:util'
import { ConfigError } from '../errors.ts'
import { didYouMean } from '../util/did-you-mean.ts'

const RUN_OPTIONS = {
  model: { type: 'string' },
  concurrency: { type: 'string' },
  filter: { type: 'string' },
  tag: { type: 'string', multiple: true },
  trials: { type: 'string' },
  timeout: { type: 'string' },
  bail: { type: 'boolean' },
  out: { type: 'string' },
  record: { type: 'boolean' },
  replay: { type: 'string' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `evals run` flags after validation. */
export interface RunFlags {
  patterns: string[]
  model?: string
  concurrency: number
  filter?: string
  tags: string[]
  trials?: number
  timeoutMs?: number
  bail: boolean
  /** `--record`, `--replay` or `--replay auto` */
  cassettes?: 'record' | 'replay' | 'auto'
  outDir: string
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
    throw new ConfigError(explainParseError(error))
  }
  const { values, positionals } = parsed
  return {
    patterns: positionals,
    concurrency: positiveInteger(values.concurrency, '--concurrency') ?? 4,
    tags: values.tag ?? [],
    bail: values.bail ?? false,
    outDir: values.out ?? 'reports',
    color: values['no-color'] !== true && !process.env.NO_COLOR,
    help: values.help ?? false,
    ...defined('model', values.model),
    ...defined('filter', values.filter),
    ...defined('trials', positiveInteger(values.trials, '--trials')),
    ...defined('timeoutMs', positiveInteger(values.timeout, '--timeout')),
    ...defined('cassettes', cassetteMode(values.record, values.replay)),
  }
}

function explainParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1]
  if (unknown !== undefined) {
    const flags = Object.keys(RUN_OPTIONS).map((name) => `--${name}`)
    const hint = didYouMean(unknown, flags)
    return `evals run: unknown option \`${unknown}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Run \`evals run --help\` for the options.`
  }
  const missing = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1]
  if (missing !== undefined) return `evals run: \`${missing}\` needs a value, e.g. \`${missing} 4\`.`
  return `evals run: ${message}`
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
