import { closeSync, existsSync, openSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { readLines } from '../../report-file/lines.ts'
import { openAtomic } from '../../util/atomic-file.ts'
import { readAt } from '../../util/read-at.ts'
import { TypedList } from '../../util/typed-list.ts'
import type { CaseResult } from '../../model/case-result.ts'

/** The key of a (case, variant, trial) pair; a run without variants keys as before variants existed. */
export function pairKey(suite: string, caseId: string, trial: number, variant?: string): string {
  const key = `${suite}\u0000${caseId}\u0000${String(trial)}`
  return variant === undefined ? key : `${key}\u0000${variant}`
}

/** What `readFinished` found in a results file. */
export interface Finished {
  /** keys (`pairKey`) of the pairs with a result */
  keys: Set<string>
  /** lines dropped: a torn last line, unreadable or duplicate rows */
  dropped: number
}

/**
 * Streams the rows of an interrupted run's results.jsonl to `onRow`, once per (case, trial) pair: a row that
 * repeats a pair is ignored with a warning, as is a line torn by `kill -9` or otherwise unreadable, and a row of a pair
 * not in `planned` (a case removed before `--resume-force`). When lines were
 * dropped the file is rewritten without them, so appending to it stays line-aligned and every row counts once.
 */
export async function readFinished(
  path: string,
  onRow: (result: CaseResult) => void,
  warn: (message: string) => void,
  planned?: ReadonlySet<string>,
): Promise<Finished> {
  const keys = new Set<string>()
  if (!existsSync(path)) return { keys, dropped: 0 }
  // where each kept row is in the file
  const offsets = new TypedList(Float64Array, 1024)
  const sizes = new TypedList(Uint32Array, 1024)
  let dropped = 0
  let ended = true
  for await (const line of readLines(path)) {
    if (line.text.trim() === '') continue
    let result: CaseResult
    try {
      result = JSON.parse(line.text) as CaseResult
    } catch {
      dropped++
      warn(`ignoring an unreadable line at byte ${String(line.offset)} of ${path} (a write cut short)`)
      continue
    }
    const key = pairKey(result.suite, result.caseId, result.trial, result.variant)
    if (planned !== undefined && !planned.has(key)) {
      dropped++
      warn(
        `dropping the row of ${result.suite}/${result.caseId} trial ${String(result.trial)}: that pair is no longer in the run`,
      )
      continue
    }
    if (keys.has(key)) {
      dropped++
      warn(
        `ignoring a second row for ${result.suite}/${result.caseId} trial ${String(result.trial)} in ${path}; the first one counts`,
      )
      continue
    }
    keys.add(key)
    offsets.push(line.offset)
    sizes.push(line.bytes)
    onRow(result)
  }
  const last = offsets.length - 1
  // a last row without its newline would join the next appended row: rewrite that case too
  if (last >= 0) ended = await endsWithNewline(path, offsets.get(last) + sizes.get(last))
  if (dropped > 0 || !ended) await rewrite(path, offsets, sizes)
  return { keys, dropped }
}

async function endsWithNewline(path: string, at: number): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const byte = Buffer.alloc(1)
    const { bytesRead } = await file.read(byte, 0, 1, at)
    return bytesRead === 1 && byte[0] === 10
  } finally {
    await file.close()
  }
}

const NEWLINE = Buffer.from('\n')

/** Writes the kept rows of `path`, each ending in a newline, to a temporary file renamed over it. */
async function rewrite(
  path: string,
  offsets: TypedList<Float64Array>,
  sizes: TypedList<Uint32Array>,
): Promise<void> {
  const out = await openAtomic(path)
  try {
    const source = openSync(path, 'r')
    try {
      let buffer = Buffer.alloc(0)
      for (let row = 0; row < offsets.length; row++) {
        const offset = offsets.get(row)
        const bytes = sizes.get(row)
        if (buffer.length < bytes) buffer = Buffer.allocUnsafe(Math.max(bytes, 2 * buffer.length))
        if (readAt(source, buffer, 0, bytes, offset) < bytes)
          throw new Error(
            `${path} got shorter while it was rewritten: the row at byte ${String(offset)} is cut off`,
          )
        out.write(buffer.subarray(0, bytes))
        out.write(NEWLINE)
      }
    } finally {
      closeSync(source)
    }
  } catch (error) {
    await out.abort()
    throw error
  }
  await out.commit()
}
