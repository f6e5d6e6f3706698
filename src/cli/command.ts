import { CaseFileError, EvalsError } from '../errors.ts'
import { EXIT } from './exit-code.ts'
import { parseFlags, type FlagTable, type ParsedArgs } from './flag-table.ts'
import { formatHelp } from './help.ts'

/** What an `evals` subcommand is made of; `defineCommand` adds parsing, `--help` and the error handling. */
export interface CommandSpec<T extends FlagTable, P extends { help: boolean }> {
  /** e.g. `evals run`: every message of the command starts with it */
  readonly name: string
  /** the usage line and the prose `--help` shows above the flags */
  readonly usage: string
  /** the flags, in `--help` order; `help: HELP_FLAG` among them */
  readonly flags: T
  /** what `--help` shows below the flags, e.g. the exit codes */
  readonly footer?: string
  /** whether it takes arguments besides flags @default true */
  readonly positionals?: false
  /** reads the arguments; throws a ConfigError for a bad command line @default the flag table's parser */
  readonly parse?: (args: readonly string[]) => P
  /** does the work and returns the exit code; a thrown EvalsError prints its message and exits 2 */
  run(parsed: P, context: { help: string }): number | Promise<number>
}

/** A subcommand ready to run: its flags and help for `evals help <command>`, and its entry point. */
export interface Command {
  readonly name: string
  readonly flags: FlagTable
  readonly help: string
  /** reads a command line as `main` does; throws a ConfigError for a bad one */
  parse(args: readonly string[]): { help: boolean }
  main(args: readonly string[]): Promise<number>
}

/** Parsed arguments as a command sees them by default: the flag table's result and whether help was asked. */
export type CommandArgs<T extends FlagTable> = ParsedArgs<T> & { help: boolean }

/**
 * Makes a command: parse the arguments (an unknown flag or a bad value exits 2 with the message), print `--help`,
 * else run; a known error prints its message (a case-file error every issue) and an unknown one its stack, exit 2.
 */
export function defineCommand<const T extends FlagTable, P extends { help: boolean } = CommandArgs<T>>(
  spec: CommandSpec<T, P>,
): Command {
  const help = formatHelp(spec.usage, spec.flags, spec.footer)
  const parse =
    spec.parse ??
    ((args: readonly string[]): P => {
      const parsed = parseFlags(spec.name, spec.flags, args, { positionals: spec.positionals ?? true })
      return { ...parsed, help: parsed.given.help === true } as unknown as P
    })
  return {
    name: spec.name,
    flags: spec.flags,
    help,
    parse,
    async main(args) {
      try {
        const parsed = parse(args)
        if (parsed.help) {
          process.stdout.write(help)
          return EXIT.ok
        }
        return await spec.run(parsed, { help })
      } catch (error) {
        return failed(error)
      }
    },
  }
}

function failed(error: unknown): number {
  if (error instanceof CaseFileError) {
    const count = error.issues.length
    process.stderr.write(
      `${error.message}\n\n${count} problem${count === 1 ? '' : 's'} in the case files; nothing ran.\n`,
    )
  } else if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  return EXIT.couldNotRun
}
