import { closeSync, openSync, readSync, writeSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { AtomicFile } from './atomic-file.ts'

/**
 * A temporary file for a part of another file that can only be opened once it is complete (a JUnit suite's
 * counts go in its opening tag, before its testcases): the part is written here, then copied over chunk by chunk,
 * so memory holds one chunk however large the part.
 */
export interface ScratchFile {
  write(text: string): void
  /** copies everything written since the last drain to `out` and empties the scratch file */
  drainInto(out: AtomicFile): void
  /** closes and deletes the scratch file */
  remove(): Promise<void>
}

const PENDING_CHARS = 1 << 16
const CHUNK_BYTES = 1 << 18

/** Opens a scratch file in the directory of `nextTo` (the file it is drained into, so both are on one disk). */
export function openScratch(nextTo: string): ScratchFile {
  const path = join(
    dirname(nextTo),
    `.${basename(nextTo)}.${process.pid}.${Math.random().toString(36).slice(2)}.scratch`,
  )
  const fd = openSync(path, 'w+')
  let pending: string[] = []
  let pendingChars = 0
  let size = 0
  let open = true
  const flush = (): void => {
    if (pendingChars === 0) return
    const bytes = Buffer.from(pending.join(''))
    for (let done = 0; done < bytes.length;)
      done += writeSync(fd, bytes, done, bytes.length - done, size + done)
    size += bytes.length
    pending = []
    pendingChars = 0
  }
  return {
    write(text) {
      pending.push(text)
      pendingChars += text.length
      if (pendingChars >= PENDING_CHARS) flush()
    },
    drainInto(out) {
      flush()
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size, 1)))
      for (let at = 0; at < size;) {
        const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at)
        if (read === 0) throw new Error(`${path} ended before its ${size} bytes were read`)
        out.write(chunk.subarray(0, read))
        at += read
      }
      size = 0
    },
    async remove() {
      if (open) closeSync(fd)
      open = false
      await rm(path, { force: true })
    },
  }
}
