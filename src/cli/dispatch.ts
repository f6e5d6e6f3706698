import { didYouMean } from '../util/did-you-mean.ts'
import { BASELINE_HELP, COMPARE_HELP, HELP, MERGE_HELP, REPORT_HELP, RUN_HELP } from './help.ts'

const COMMANDS = ['run', 'compare', 'baseline', 'report', 'merge', 'schema', 'init', 'view', 'help']
const COMMAND_HELP: Partial<Record<string, string>> = {
  run: RUN_HELP,
  compare: COMPARE_HELP,
  baseline: BASELINE_HELP,
  report: REPORT_HELP,
  merge: MERGE_HELP,
}

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
      process.stdout.write(COMMAND_HELP[args[0] ?? ''] ?? HELP(version))
      return 0
    case 'run': {
      const { runCommand } = await import('./run-command.ts')
      return runCommand(args)
    }
    case 'compare': {
      const { compareCommand } = await import('./compare-command.ts')
      return compareCommand(args)
    }
    case 'baseline': {
      const { baselineCommand } = await import('./baseline-command.ts')
      return baselineCommand(args)
    }
    case 'report': {
      const { reportCommand } = await import('./report-command.ts')
      return reportCommand(args)
    }
    case 'merge': {
      const { mergeCommand } = await import('./merge-command.ts')
      return mergeCommand(args)
    }
    case 'init':
      return (await import('./init-command.ts')).initCommand(args)
    case 'view':
      return (await import('./view-command.ts')).viewCommand(args)
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
