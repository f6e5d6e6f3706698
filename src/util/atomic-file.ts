import { InternalError } from '../errors.ts'
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * A file written to a temporary name and renamed into place, so readers never see half of it. What is written goes in
 * as it is: writers redact the values they format (see `Redactor.value`), never the text of the file.
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
      if (!open) throw new InternalError(`${path} is already closed`)
      const chunk = piece
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

/**
 * Writes a whole file atomically (temp file + rename): the one way this code base replaces a small file. `durable`
 * flushes it to the disk before the rename (baselines, which are committed).
 */
export async function writeFileAtomic(
  path: string,
  text: string | Uint8Array,
  { durable = false }: { durable?: boolean } = {},
): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempPath(path)
  try {
    const handle = await open(temp, 'wx')
    try {
      await handle.writeFile(text)
      if (durable) await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** `writeFileAtomic` for code that cannot wait (a module compiled while it is being imported). */
export function writeFileAtomicSync(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = tempPath(path)
  try {
    writeFileSync(temp, text, { flag: 'wx' })
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
}
