import { createContext, Script } from 'node:vm'
import { TimeoutError } from '../errors.ts'

const script = new Script('call()')
const sandbox = createContext({ call: undefined as (() => unknown) | undefined })

/**
 * Calls `fn` in the main thread, where it can share state with the user's own modules, with its synchronous part
 * bounded: the `vm` timeout stops a loop that never yields (V8 terminates whatever runs, our realm's functions too),
 * and `process.exit()` called meanwhile throws instead of ending the runner. Whatever `fn` does after its first
 * `await` is bounded by the case timeout as any promise is (the pair settles without it), not stopped.
 */
export function callBounded<T>(fn: () => T, deadline: number | undefined, label: string): T {
  const timeout = deadline === undefined ? undefined : Math.max(1, Math.floor(deadline - performance.now()))
  const exit = process.exit.bind(process)
  process.exit = (code?: number | string | null) => {
    throw new Error(
      `${label} called \`process.exit(${String(code ?? '')})\`; a check returns its verdict instead`,
    )
  }
  sandbox.call = fn
  try {
    return script.runInContext(sandbox, timeout === undefined ? {} : { timeout }) as T
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new TimeoutError(
        `${label} ran past the case's timeout (${String(timeout)}ms left) and was stopped`,
        timeout ?? 0,
      )
    throw error
  } finally {
    sandbox.call = undefined
    process.exit = exit
  }
}
