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
  outDir: string
  color: boolean
  help: boolean
}

/** Parses `evals run` arguments; throws a ConfigError with a did-you-mean for unknown flags and bad numbers. */
export function parseRunFlags(args: readonly string[]): RunFlags {
  let parsed
  try {
    parsed = parseArgs({ args: [...args], options: RUN_OPTIONS, allowPositionals: true, strict: true })
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
