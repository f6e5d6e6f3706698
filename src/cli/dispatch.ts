import { didYouMean } from '../util/did-you-mean.ts'
import type { Command } from './command.ts'
import { HELP } from './help.ts'

/** Every subcommand by name; each module is imported only when its command runs or its help is asked for. */
export const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ['run', async () => (await import('./run-command.ts')).runCommand],
  ['compare', async () => (await import('./compare-command.ts')).compareCommand],
  ['baseline', async () => (await import('./baseline-command.ts')).baselineCommand],
  ['plan', async () => (await import('./plan-command.ts')).planCommand],
  ['report', async () => (await import('./report-command.ts')).reportCommand],
  ['merge', async () => (await import('./merge-command.ts')).mergeCommand],
  ['schema', async () => (await import('./schema-command.ts')).schemaCommand],
  ['init', async () => (await import('./init-command.ts')).initCommand],
  ['view', async () => (await import('./view-command.ts')).viewCommand],
])

/** Picks the subcommand; `evals help <command>` prints its help. */
export async function dispatch(
  command: string | undefined,
  args: readonly string[],
  version: string,
): Promise<number> {
  // no command at all is a usage error, as for git or npm: the help goes to stderr and the exit code is 2
  if (command === undefined) {
    process.stderr.write(HELP(version))
    return 2
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    const load = COMMANDS.get(args[0] ?? '')
    process.stdout.write(load === undefined ? HELP(version) : (await load()).help)
    return 0
  }
  const load = COMMANDS.get(command)
  if (load !== undefined) return (await load()).main(args)
  const hint = didYouMean(command, [...COMMANDS.keys(), 'help'])
  process.stderr.write(
    `evals: unknown command \`${command}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Run \`evals --help\` for the list.\n`,
  )
  return 2
}
