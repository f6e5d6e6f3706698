import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, EvalsError, toError } from '../errors.ts'
import { EXIT } from './exit-code.ts'
import { explainParseError } from './options.ts'

export const VIEW_HELP = `Usage: evals view [reports-dir…] [options]

Serves a local web app over report folders (default \`reports\`): the runs per suite, newest first, with accuracy
and cost trends; any run's HTML report; two runs compared case by case with the gate's paired statistics; a run
in progress followed live. It listens on 127.0.0.1 only and reads nothing outside the given folders.

Options
  --port <n>                 port to listen on (default: a free one)
  --open                     open the URL in the default browser
  -h, --help                 this help

Stop it with Ctrl-C.
`

const VIEW_OPTIONS = {
  port: { type: 'string' },
  open: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `evals view [reports-dir…]`: serves the run list until interrupted. Exit 2 when it cannot start. */
export async function viewCommand(args: readonly string[]): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...args], options: VIEW_OPTIONS, allowPositionals: true, strict: true })
    } catch (error) {
      throw new ConfigError(explainParseError(error, 'evals view', Object.keys(VIEW_OPTIONS)))
    }
    const { values, positionals } = parsed
    if (values.help === true) {
      process.stdout.write(VIEW_HELP)
      return EXIT.ok
    }
    const roots = (positionals.length > 0 ? positionals : ['reports']).map((dir) => {
      if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) {
        throw new ConfigError(
          `evals view: \`${dir}\` is not a folder. Give the reports folder of your runs (\`evals run\` writes \`reports/\`).`,
        )
      }
      return resolve(dir)
    })
    const port = portOf(values.port)
    const { startView } = await import('../view/server.ts')
    const server = await startView({ roots, ...(port !== undefined && { port }) }).catch((error: unknown) => {
      throw new ConfigError(
        `evals view: cannot listen on 127.0.0.1:${String(port ?? 0)} (${toError(error).message}).`,
      )
    })
    process.stdout.write(`evals view: ${server.url} (serving ${roots.join(', ')}; Ctrl-C stops it)\n`)
    if (values.open === true) openBrowser(server.url)
    await new Promise<void>((stopped) => {
      const stop = (): void => {
        stopped()
      }
      process.once('SIGINT', stop).once('SIGTERM', stop)
    })
    await server.close()
    return EXIT.ok
  } catch (error) {
    if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
    else process.stderr.write(`${toError(error).stack ?? String(error)}\n`)
    return EXIT.couldNotRun
  }
}

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
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
