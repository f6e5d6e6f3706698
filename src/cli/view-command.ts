import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConfigError, toError } from '../errors.ts'
import { DEFAULT_OUT_DIR } from '../runner/plan/defaults.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'

/** `evals view [reports-dir…]`: serves the run list until interrupted. Exit 2 when it cannot start. */
export const viewCommand = defineCommand({
  name: 'evals view',
  usage: `Usage: evals view [reports-dir…] [options]

Serves a local web app over report folders (default \`${DEFAULT_OUT_DIR}\`): the runs per suite, newest first, with accuracy
and cost trends; any run's HTML report; two runs compared case by case with the gate's paired statistics; a run
in progress followed live. It listens on 127.0.0.1 only and reads nothing outside the given folders.`,
  flags: {
    port: {
      type: 'string',
      value: '<n>',
      parse: portOf,
      description: 'port to listen on (default: a free one)',
    },
    open: { type: 'boolean', description: 'open the URL in the default browser' },
    help: HELP_FLAG,
  },
  footer: 'Stop it with Ctrl-C.\n',
  async run({ flags, positionals }) {
    const roots = (positionals.length > 0 ? positionals : [DEFAULT_OUT_DIR]).map((dir) => {
      if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) {
        throw new ConfigError(
          `evals view: \`${dir}\` is not a folder. Give the reports folder of your runs (\`evals run\` writes \`${DEFAULT_OUT_DIR}/\`).`,
        )
      }
      return resolve(dir)
    })
    const { port } = flags
    const { startView } = await import('../view/server.ts')
    const server = await startView({ roots, ...(port !== undefined && { port }) }).catch((error: unknown) => {
      throw new ConfigError(
        `evals view: cannot listen on 127.0.0.1:${String(port ?? 0)} (${toError(error).message}).`,
      )
    })
    process.stdout.write(`evals view: ${server.url} (serving ${roots.join(', ')}; Ctrl-C stops it)\n`)
    if (flags.open === true) openBrowser(server.url)
    await new Promise<void>((stopped) => {
      const stop = (): void => {
        stopped()
      }
      process.once('SIGINT', stop).once('SIGTERM', stop)
    })
    await server.close()
    return EXIT.ok
  },
})

function portOf(value: string): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`evals view: \`--port ${value}\` is not a port; give a number from 0 to 65535.`)
  }
  return port
}

function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]]
  const child = spawn(command, args, { stdio: 'ignore', detached: true })
  child.on('error', () => {
    process.stderr.write(`evals view: could not open a browser; open ${url} yourself.\n`)
  })
  child.unref()
}
