import { Worker } from 'node:worker_threads'
import { TimeoutError } from '../errors.ts'
import type { Transcript } from '../types.ts'
import type { EvaluatorContext } from './evaluator.ts'

/**
 * Where `javascript:` checks run: worker threads, so that a check stuck in a loop can be stopped at the case's
 * timeout (the pair's signal terminates its worker), a check never blocks the runner's event loop (other cases,
 * timers, Ctrl-C go on), and `process.exit()` in a check ends only its worker. A `vm` timeout was the other choice:
 * it stops only synchronous code (a loop after an `await` escapes it), blocks every other case while it waits, and
 * leaves `process.exit` to end the runner. The price is a structured clone of the transcript per check.
 *
 * Workers are pooled: one per check running at once, kept idle (unreferenced) for the next, replaced when stopped.
 */

/** What a check returned (cloned back), or why it did not return. */
export type WorkerOutcome =
  { kind: 'returned'; value: unknown } | { kind: 'threw'; message: string } | { kind: 'exited'; code: number }

// CommonJS, evaluated in the worker: it needs nothing of ours, so it runs the same from src/, dist/ and bundles
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const AsyncFunction = (async () => undefined).constructor
const compiled = new Map()
function compile(source) {
  let check = compiled.get(source)
  if (check === undefined) {
    try {
      check = new AsyncFunction('output', 'transcript', 'vars', 'context', 'return (' + source + '\\n)')
    } catch {
      check = new AsyncFunction('output', 'transcript', 'vars', 'context', source)
    }
    compiled.set(source, check)
  }
  return check
}
parentPort.on('message', async ({ source, transcript, context }) => {
  let outcome
  try {
    const signal = new AbortController().signal
    const value = await compile(source)(transcript.output, transcript, context.vars, { ...context, signal })
    outcome = { kind: 'returned', value }
  } catch (error) {
    outcome = { kind: 'threw', message: error instanceof Error ? error.message : String(error) }
  }
  try {
    parentPort.postMessage(outcome)
  } catch {
    parentPort.postMessage({ kind: 'returned', value: { uncloneable: typeof outcome.value } })
  }
})
`

const idle: Worker[] = []

/** Runs `source` over the transcript in a pooled worker; rejects with the signal's reason when it aborts. */
export function runInWorker(
  source: string,
  transcript: Transcript,
  context: EvaluatorContext,
): Promise<WorkerOutcome> {
  if (context.signal.aborted) return Promise.reject(reasonOf(context.signal))
  const worker = idle.pop() ?? new Worker(WORKER_SOURCE, { eval: true })
  worker.ref()
  return new Promise<WorkerOutcome>((resolve, reject) => {
    const finish = (): void => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      context.signal.removeEventListener('abort', onAbort)
    }
    const onMessage = (outcome: WorkerOutcome): void => {
      finish()
      worker.unref()
      idle.push(worker)
      resolve(outcome)
    }
    const onError = (error: Error): void => {
      finish()
      void worker.terminate()
      resolve({ kind: 'threw', message: error.message })
    }
    const onExit = (code: number): void => {
      finish()
      resolve({ kind: 'exited', code })
    }
    const onAbort = (): void => {
      finish()
      void worker.terminate()
      reject(reasonOf(context.signal))
    }
    worker.on('message', onMessage)
    worker.once('error', onError)
    worker.once('exit', onExit)
    context.signal.addEventListener('abort', onAbort, { once: true })
    const { caseId, trial, vars } = context
    try {
      worker.postMessage({ source, transcript, context: { caseId, trial, vars } })
    } catch {
      // something in the transcript cannot be cloned (a function in `parsed`): its JSON form can
      const plain = JSON.parse(JSON.stringify({ transcript, vars })) as {
        transcript: Transcript
        vars: unknown
      }
      worker.postMessage({
        source,
        transcript: plain.transcript,
        context: { caseId, trial, vars: plain.vars },
      })
    }
  })
}

function reasonOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason : new TimeoutError('the `javascript` check was stopped', 0)
}
