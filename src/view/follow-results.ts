import { watch, type FSWatcher } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { openRegularFile } from './run-folder.ts'

/** A finished (case, trial) pair as the live view shows it. */
export interface LiveCase {
  suite: string
  caseId: string
  trial: number
  status: string
  durationMs: number
  /** the first failing verdict's reason, or the error message */
  reason?: string
}

/** What `followResults` reports: a pair as it finishes, then `end` once the run's summary.json exists. */
export type LiveEvent = { kind: 'case'; result: LiveCase } | { kind: 'end' }

/** How often the file is checked besides file-system events, which some file systems do not send. */
const POLL_MS = 1000

/**
 * Follows `<dir>/results.jsonl` from its start: calls `onEvent` for each complete line, as the runner appends
 * them (watched with `fs.watch`, polled as a fallback), and `end` when summary.json appears. Returns the stop.
 */
export function followResults(dir: string, onEvent: (event: LiveEvent) => Promise<void>): () => void {
  const file = join(dir, 'results.jsonl')
  let offset = 0
  let carry = ''
  let stopped = false
  let pending: Promise<void> = Promise.resolve()
  let watcher: FSWatcher | undefined

  const readNew = async (): Promise<void> => {
    // a link or a FIFO in place of results.jsonl is refused: the feed reads the run's own file only
    const opened = await openRegularFile(file)
    if (opened) {
      const { handle } = opened
      try {
        const { size } = await handle.stat()
        while (offset < size && !stopped) {
          const buffer = Buffer.alloc(Math.min(size - offset, 1 << 20))
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
          if (bytesRead === 0) break
          offset += bytesRead
          const lines = (carry + buffer.toString('utf8', 0, bytesRead)).split('\n')
          carry = lines.pop() ?? ''
          for (const line of lines) {
            const result = liveCaseOf(line)
            if (result) await onEvent({ kind: 'case', result })
          }
        }
      } finally {
        await handle.close()
      }
    }
    if (!stopped && (await stat(join(dir, 'summary.json')).catch(() => undefined))) {
      stop()
      await onEvent({ kind: 'end' })
    }
  }
  const check = (): void => {
    if (!stopped) pending = pending.then(readNew, readNew)
  }
  const stop = (): void => {
    stopped = true
    watcher?.close()
    clearInterval(timer)
  }
  try {
    watcher = watch(dir, check)
    watcher.on('error', () => watcher?.close())
  } catch {
    // no watching here: the poll still follows the file
  }
  const timer = setInterval(check, POLL_MS)
  check()
  return stop
}

function liveCaseOf(line: string): LiveCase | undefined {
  let row: Record<string, unknown>
  try {
    row = JSON.parse(line) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (typeof row.suite !== 'string' || typeof row.caseId !== 'string') return undefined
  const reason = reasonOf(row)
  return {
    suite: row.suite,
    caseId: row.caseId,
    trial: typeof row.trial === 'number' ? row.trial : 0,
    status: typeof row.status === 'string' ? row.status : 'unknown',
    durationMs: typeof row.durationMs === 'number' ? row.durationMs : 0,
    ...(reason !== undefined && { reason }),
  }
}

function reasonOf(row: Record<string, unknown>): string | undefined {
  const error = row.error as { message?: unknown } | undefined
  if (typeof error?.message === 'string') return error.message
  const verdicts = Array.isArray(row.verdicts) ? (row.verdicts as { pass?: unknown; reason?: unknown }[]) : []
  const failing = verdicts.find((verdict) => verdict.pass === false)
  return typeof failing?.reason === 'string' ? failing.reason : undefined
}
