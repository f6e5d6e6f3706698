import { DEFAULT_ALPHA } from '../baselines/defaults.ts'
import { FAIL_ON, type FailOn } from '../baselines/outcome.ts'
import type { GateOptions } from '../baselines/gate-options.ts'
import { ConfigError } from '../errors.ts'
import { DEFAULT_REPORTERS } from '../reporters/index.ts'
import type { FlagSpec, FlagTable } from './flag-table.ts'

/** Gate flags, shared by `evals run`, `evals compare` and `evals merge`; `parseGateFlags` reads them. */
export const GATE_FLAGS = {
  alpha: {
    type: 'string',
    value: '<p>',
    key: false,
    description: `significance level of the accuracy-regression test (default ${String(DEFAULT_ALPHA)})`,
  },
  'max-latency-ratio': {
    type: 'string',
    value: '<x>',
    key: false,
    description: "fail when p50 or p95 latency grows past x times the baseline's",
  },
  'max-cost-ratio': {
    type: 'string',
    value: '<x>',
    key: false,
    description: "fail when the cost per trial grows past x times the baseline's",
  },
  'strict-critical': {
    type: 'boolean',
    key: false,
    description: "fail on any drop of a critical case, even one its trials can't tell from noise",
  },
} as const satisfies FlagTable

/** `--no-color`, as every command that prints in colour takes it. */
export const NO_COLOR_FLAG = {
  type: 'boolean',
  key: false,
  description: 'plain text',
} as const satisfies FlagSpec

/** `--reporter` of `evals run` and `evals merge`: the reporters to use, as `reportersFlag` reads them. */
export const REPORTER_FLAG = {
  type: 'string',
  value: '<names>',
  multiple: true,
  default: DEFAULT_REPORTERS,
  key: 'reporters',
  parse: reportersFlag,
  description: [
    'comma-separated or repeated: console, json, junit, html, markdown, or a module path',
    `(default ${DEFAULT_REPORTERS.join(',')}); markdown and modules add to the defaults, a list`,
    'naming a default reporter replaces them (`--reporter console,markdown`);',
    'report.json is written whenever a file format is on',
  ],
} as const satisfies FlagSpec

/** `--fail-on regression|failure|never` of `command`: what makes the exit code 1 (the Action's `fail-on`). */
export function failOnFlag(command: string) {
  return {
    type: 'string',
    value: FAIL_ON.join('|'),
    description: [
      '`failure` (default): exit 1 when the gate fails or a case fails (`expect_fail` cases',
      'aside); `regression`: only when the gate fails (errored cases still exit 2);',
      '`never`: exit 0 unless no case ran. The last line says which happened',
    ],
    parse: (given: string, flag: string): FailOn => {
      const known: readonly string[] = FAIL_ON
      if (known.includes(given)) return given as FailOn
      throw new ConfigError(`${command}: \`${flag}\` must be one of ${FAIL_ON.join(', ')}, got "${given}".`)
    },
  } as const satisfies FlagSpec
}

/** `--baseline-missing ok|error` of `command` (e.g. `evals run`). */
export function baselineMissingFlag(command: string) {
  return {
    type: 'string',
    value: 'ok|error',
    default: 'ok',
    description: [
      '`ok` (default): a suite without a baseline file runs ungated with a warning, the',
      'others stay gated; `error`: a missing baseline stops the run (strict)',
    ],
    parse: (given: string, flag: string): 'ok' | 'error' => {
      if (given === 'ok' || given === 'error') return given
      throw new ConfigError(`${command}: \`${flag}\` must be \`ok\` or \`error\`, got "${given}".`)
    },
  } as const satisfies FlagSpec
}

/** Reads `--alpha`, `--max-latency-ratio`, `--max-cost-ratio` and `--strict-critical`; only the flags given appear. */
export function parseGateFlags(
  values: {
    alpha?: string | undefined
    'max-latency-ratio'?: string | undefined
    'max-cost-ratio'?: string | undefined
    'strict-critical'?: boolean | undefined
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
    ...defined('strict_critical', values['strict-critical']),
  }
}

/** `max_cost_ratio` → `--max-cost-ratio` */
export function gateFlagOf(key: string): string {
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
/**
 * The reporters of `--reporter`: extras only (`markdown`, a module path) add to the defaults; a list that names a
 * default reporter (console, json, junit, html) is the whole list, e.g. `--reporter console,markdown`.
 */
function reportersFlag(values: readonly string[] | undefined): string[] {
  if (values === undefined) return [...DEFAULT_REPORTERS]
  const given = listFlag(values)
  const defaults: readonly string[] = DEFAULT_REPORTERS
  return given.some((name) => defaults.includes(name)) ? given : [...DEFAULT_REPORTERS, ...given]
}

/** `--reporter a,b --reporter c` → [a, b, c] */
export function listFlag(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean)
}
function defined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>)
}
