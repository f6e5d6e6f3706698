import { readFileSync } from 'node:fs'

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

/** Runs the `evals` command line and returns the exit code: 0 ok, 1 failures or regressions, 2 could not run. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command] = argv
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageJson.version}\n`)
    return 0
  }
  process.stderr.write(`evals ${packageJson.version}\nUsage: evals run <cases.yaml…> [options]\n`)
  return await Promise.resolve(command === undefined || command === '--help' ? 0 : 2)
}
