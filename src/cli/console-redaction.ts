import { envRedactor, redactWrites, type Redactor } from '../util/redact.ts'

/** the redactor of what this process prints: the environment's until a command's run has its own */
let current: Redactor | undefined

/** Redacts everything the process prints to stdout and stderr, from now on. */
export function redactConsole(): void {
  const now = (): Redactor => current ?? envRedactor()
  redactWrites(process.stdout, now)
  redactWrites(process.stderr, now)
}

/** From now on, what the process prints goes through the run's redactor (its `--redact` and `redact:` patterns). */
export function redactConsoleWith(redactor: Redactor): void {
  current = redactor
}
