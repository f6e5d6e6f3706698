import { CaseFileError, EvalsError, formatCaseFileIssue, InternalError } from '../errors.ts'
import { EXIT } from './exit-code.ts'
import { parseFlags, type FlagTable, type ParsedArgs } from './flag-table.ts'
import { formatHelp } from './help.ts'
import { formatCount } from '../util/format-count.ts'

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

/** Case-file problems printed before the rest are counted: 130,000 lines help nobody. */
const LISTED_ISSUES = 50

function failed(error: unknown): number {
  if (error instanceof CaseFileError) {
    const count = error.issues.length
    const listed = error.issues.slice(0, LISTED_ISSUES).map(formatCaseFileIssue)
    if (count > LISTED_ISSUES) listed.push(`… and ${formatCount(count - LISTED_ISSUES)} more`)
    process.stderr.write(
      `${listed.join('\n')}\n\n${formatCount(count)} problem${count === 1 ? '' : 's'} in the case files; nothing ran.\n`,
    )
  } else if (error instanceof InternalError) process.stderr.write(`${error.stack ?? error.message}\n`)
  else if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
  else
    process.stderr.write(
      `${oneLine(error) ?? (error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    )
  return EXIT.couldNotRun
}

/** What the file system said, in one line with the path and what to do; undefined for anything else (a bug). */
function oneLine(error: unknown): string | undefined {
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return 'evals: the input is nested too deeply to read (thousands of levels); flatten it.'
  const { code, path, syscall } = (error ?? {}) as { code?: unknown; path?: unknown; syscall?: unknown }
  if (typeof code !== 'string' || !(code in FILE_SYSTEM)) return undefined
  const where = typeof path === 'string' ? ` \`${path}\`` : ''
  const doing = typeof syscall === 'string' ? ` (${syscall})` : ''
  return `evals: cannot write or read${where}${doing}: ${FILE_SYSTEM[code] ?? code}.`
}

const FILE_SYSTEM: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full; free space or pass `--out` on another disk',
  EDQUOT: 'the disk quota is used up; free space or pass `--out` elsewhere',
  EROFS: 'the file system is read-only; pass `--out` to a writable folder',
  EACCES: 'permission denied; pass `--out` to a folder you can write, or fix its permissions',
  EPERM: 'the operation is not permitted there; pass `--out` to a folder you can write',
  ENOTDIR: 'a part of the path is a file, not a folder; check the path (`--out` names a folder)',
  EISDIR: 'it is a folder where a file was expected; give the path of a file',
  ENAMETOOLONG: 'a name in the path is too long for the file system; shorten the suite name, case id or path',
  ENOENT: 'no such file or folder; check the path',
  ELOOP: 'the path loops through symbolic links',
  EMFILE: 'too many open files; lower `--concurrency` or raise the limit (`ulimit -n`)',
  EEXIST: 'something is already there; remove it or choose another path',
}
