import { didYouMean } from '../util/did-you-mean.ts'
import { HELP, RUN_HELP } from './help.ts'

const COMMANDS = ['run', 'schema', 'help']

/** Picks the subcommand; each one is imported only when used. */
export async function dispatch(
  command: string | undefined,
  args: readonly string[],
  version: string,
): Promise<number> {
  switch (command) {
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(args[0] === 'run' ? RUN_HELP : HELP(version))
      return 0
    case 'run': {
      const { runCommand } = await import('./run-command.ts')
      return runCommand(args)
    }
    case 'schema': {
      const { schemaCommand } = await import('./schema-command.ts')
      return schemaCommand()
    }
    default: {
      const hint = didYouMean(command, COMMANDS)
      process.stderr.write(
        `evals: unknown command \`${command}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Run \`evals --help\` for the list.\n`,
      )
      return 2
    }
  }
}
