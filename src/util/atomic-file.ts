import { closeSync, openSync, writeSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { redact } from './redact.ts'

/**
 * A file written to a temporary name and renamed into place, so readers never see half of it. Text is redacted on
 * the way in; bytes are written as they are (a caller copying bytes checks them with `Redactor.mayChange`).
 */
export interface AtomicFile {
  /** Appends text or bytes: gathered in one buffer and written a megabyte at a time, so memory stays flat. */
  write(chunk: string | Buffer): void
  /** writes what is gathered and renames the finished file into place */
  commit(): Promise<void>
  /** removes the temporary file */
  abort(): Promise<void>
}

const BUFFER_BYTES = 1 << 20

export async function openAtomic(path: string): Promise<AtomicFile> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempPath(path)
  const fd = openSync(temp, 'w')
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES)
  let used = 0
  let open = true
  const flush = (): void => {
    writeAll(fd, buffer.subarray(0, used))
    used = 0
  }
  const close = (): void => {
    if (!open) return
    open = false
    closeSync(fd)
  }
  return {
    write(piece) {
      if (!open) throw new Error(`${path} is already closed`)
      const chunk = typeof piece === 'string' ? redact(piece) : piece
      // a UTF-8 string takes at most 3 bytes per UTF-16 unit
      const most = typeof chunk === 'string' ? chunk.length * 3 : chunk.length
      if (most > BUFFER_BYTES - used) flush()
      if (most > BUFFER_BYTES) writeAll(fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      else if (typeof chunk === 'string') used += buffer.write(chunk, used)
      else used += chunk.copy(buffer, used)
    },
    async commit() {
      try {
        flush()
      } finally {
        close()
      }
      await rename(temp, path)
    },
    async abort() {
      close()
      await rm(temp, { force: true })
    },
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written)
}

/** Writes a whole file atomically (temp file + rename), secrets redacted. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempPath(path)
  try {
    await writeFile(temp, redact(text))
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
}
