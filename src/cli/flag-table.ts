import { parseArgs } from 'node:util'
import { ConfigError } from '../errors.ts'
import { didYouMean } from '../util/did-you-mean.ts'

/** One flag of a command: how the parser reads it, how `--help` shows it, and what the command receives. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean'
  /** one-letter alias, e.g. `h` for `-h` */
  readonly short?: string
  /** repeatable: the value is the list of every occurrence */
  readonly multiple?: boolean
  /** the parsed value when the flag is not given; without one, the property is left out */
  readonly default?: unknown
  /** what `--help` shows after the flag, e.g. `<n>` */
  readonly value?: string
  /** the `--help` text; further lines continue it, indented under the first */
  readonly description: string | readonly string[]
  /** the heading `--help` lists the flag under @default 'Options' */
  readonly section?: string
  /**
   * the property of the parsed flags @default the flag in camelCase; `false` leaves it to the command, which reads
   * the given value and combines it with others
   */
  readonly key?: string | false
  /** turns the given value into the property's; throws a ConfigError naming `flag` (e.g. `--trials`) for a bad one */
  readonly parse?: (given: never, flag: string) => unknown
  /** the command passes the parsed value on under the same key (e.g. into `RunOptions`) */
  readonly passOn?: true
}

/** A command's flags by name (without `--`), in `--help` order. */
export type FlagTable = Readonly<Record<string, FlagSpec>>

/** The `-h, --help` flag every command takes. */
export const HELP_FLAG = {
  type: 'boolean',
  short: 'h',
  key: false,
  description: 'this help',
} as const satisfies FlagSpec

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S

type GivenValue<S extends FlagSpec> = S['type'] extends 'boolean'
  ? S extends { multiple: true }
    ? boolean[]
    : boolean
  : S extends { multiple: true }
    ? string[]
    : string

type ValueOf<S extends FlagSpec> = S extends { parse: (given: never, flag: string) => infer V }
  ? V
  : GivenValue<S>

type KeyOf<N, S extends FlagSpec> = S extends { key: infer K extends string }
  ? K
  : N extends string
    ? CamelCase<N>
    : never

type Keyed<S extends FlagSpec> = S extends { key: false } ? false : true

/** The values as given, for the flags a command combines itself; only the flags given are present. */
export type GivenFlags<T extends FlagTable> = { [N in keyof T]?: GivenValue<T[N]> }

/** The parsed flags: each flag with a key under it, always present when the flag has a default. */
export type FlagsOf<T extends FlagTable> = {
  [
    N in keyof T as Keyed<T[N]> extends true
      ? T[N] extends { default: unknown }
        ? KeyOf<N, T[N]>
        : never
      : never
  ]: ValueOf<T[N]>
} & {
  [
    N in keyof T as Keyed<T[N]> extends true
      ? T[N] extends { default: unknown }
        ? never
        : KeyOf<N, T[N]>
      : never
  ]?: ValueOf<T[N]>
}

/** The parsed flags marked `passOn`, ready to spread into the command's options. */
export type PassedOn<T extends FlagTable> = {
  [N in keyof T as T[N] extends { passOn: true } ? KeyOf<N, T[N]> : never]?: ValueOf<T[N]>
}

/** A command line read with a flag table. */
export interface ParsedArgs<T extends FlagTable> {
  flags: FlagsOf<T>
  given: GivenFlags<T>
  positionals: string[]
}

type Given = string | boolean | (string | boolean)[]

/**
 * Reads `args` with `table`: unknown flags and missing values throw a ConfigError with a did-you-mean, and so does
 * each flag's own `parse`. `command` (e.g. `evals run`) starts every message.
 */
export function parseFlags<T extends FlagTable>(
  command: string,
  table: T,
  args: readonly string[],
  { positionals = true }: { positionals?: boolean } = {},
): ParsedArgs<T> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...args],
      options: parserOptions(table),
      allowPositionals: positionals,
      strict: true,
    })
  } catch (error) {
    throw new ConfigError(explainParseError(error, command, table, args))
  }
  const given = parsed.values as Record<string, Given | undefined>
  const flags: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) {
    if (spec.key === false) continue
    const value = given[name]
    const parse = spec.parse as ((given: Given, flag: string) => unknown) | undefined
    const result =
      value === undefined ? copyOf(spec.default) : parse === undefined ? value : parse(value, `--${name}`)
    if (result !== undefined) flags[spec.key ?? camelCase(name)] = result
  }
  return { flags: flags as FlagsOf<T>, given: given as GivenFlags<T>, positionals: parsed.positionals }
}

/** The parsed flags of `table` marked `passOn`, left out when not given. */
export function passedOn<T extends FlagTable>(table: T, flags: FlagsOf<T>): PassedOn<T> {
  const values = flags as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) {
    if (spec.passOn !== true) continue
    const key = typeof spec.key === 'string' ? spec.key : camelCase(name)
    if (values[key] !== undefined) out[key] = values[key]
  }
  return out as PassedOn<T>
}

/** The `util.parseArgs` options of a table. */
function parserOptions(
  table: FlagTable,
): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  return Object.fromEntries(
    Object.entries(table).map(([name, { type, short, multiple }]) => [
      name,
      { type, ...(short !== undefined && { short }), ...(multiple === true && { multiple }) },
    ]),
  )
}

/** A parseArgs error as a message with a did-you-mean; `command` is e.g. `evals run`. */
function explainParseError(
  error: unknown,
  command: string,
  table: FlagTable,
  args: readonly string[],
): string {
  const message = error instanceof Error ? error.message : String(error)
  const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1]
  if (unknown !== undefined) {
    const flags = Object.keys(table).map((name) => `--${name}`)
    const hint = didYouMean(unknown, flags)
    return `${command}: unknown option \`${unknown}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Run \`${command} --help\` for the options.`
  }
  const valueless =
    /Option '(-\w|--[\w-]+)(?:, (--[\w-]+))?(?: <value>)?' argument (missing|is ambiguous)/.exec(message)
  if (valueless !== null) {
    const [, first = '', long, problem] = valueless
    const name = nameOf(long ?? first, table)
    return `${command}: ${needsValue(name, table[name])}${problem === 'missing' ? '' : followedBy(first, name, args)}`
  }
  return `${command}: ${message}`
}

/** `--tag` or `-t` as the flag's name in the table */
function nameOf(flag: string, table: FlagTable): string {
  if (flag.startsWith('--')) return flag.slice(2)
  return Object.entries(table).find(([, spec]) => `-${spec.short ?? ''}` === flag)?.[0] ?? flag.slice(1)
}

/** what a flag given without its value takes: its placeholder and its help */
function needsValue(name: string, spec: FlagSpec | undefined): string {
  const placeholder = spec?.value ?? '<value>'
  const lines = typeof spec?.description === 'string' ? [spec.description] : (spec?.description ?? [])
  const about = lines.join(' ').replace(/[;,.\s]+$/, '')
  return `\`--${name}\` needs a value: \`--${name} ${placeholder}\`${about === '' ? '' : ` — ${about}`}.`
}

/** the flag that took the place of the value, and how to give a value that starts with a dash */
function followedBy(flag: string, name: string, args: readonly string[]): string {
  const next = args[args.indexOf(flag) + 1]
  return ` It is followed by \`${next ?? ''}\`, which is read as a flag; a value starting with a dash goes as \`--${name}=-value\`.`
}

function camelCase(name: string): string {
  return name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
}

function copyOf(value: unknown): unknown {
  return Array.isArray(value) ? [...(value as unknown[])] : value
}
