import { readFileSync } from 'node:fs'

/** Runs the `evals` command line and returns the exit code: 0 ok, 1 failures, 2 could not run, 130 interrupted. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  // --version stays fast: nothing else is imported on this path
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${version()}\n`)
    return 0
  }
  const [{ dispatch }, { redactConsole }] = await Promise.all([
    import('./dispatch.ts'),
    import('./console-redaction.ts'),
  ])
  redactConsole()
  return dispatch(command, rest, version())
}

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return packageJson.version
}
