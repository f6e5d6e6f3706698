import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** A file written to a temporary name and renamed into place, so readers never see half of it. */
export interface AtomicFile {
  /**
   * Text: waits only when the OS buffer is full, so memory stays flat. Bytes: waits until they are written, so
   * their buffer can be reused.
   */
  write(chunk: string | Uint8Array): Promise<void>
  /** renames the finished file into place */
  commit(): Promise<void>
  /** removes the temporary file */
  abort(): Promise<void>
}

export async function openAtomic(path: string): Promise<AtomicFile> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempPath(path)
  const stream = createWriteStream(temp)
  let failed: Error | undefined
  stream.on('error', (error) => {
    failed = error
  })
  const closed = async (): Promise<void> => {
    if (!stream.closed) {
      stream.end()
      await once(stream, 'close')
    }
    if (failed) throw failed
  }
  return {
    async write(chunk) {
      if (failed) throw failed
      if (typeof chunk !== 'string') {
        await new Promise<void>((resolve, reject) => {
          stream.write(chunk, (error) => {
            if (error) reject(error)
            else resolve()
          })
        })
      } else if (!stream.write(chunk)) await once(stream, 'drain')
    },
    async commit() {
      await closed()
      await rename(temp, path)
    },
    async abort() {
      await closed().catch(() => undefined)
      await rm(temp, { force: true })
    },
  }
}

/** Writes a whole file atomically (temp file + rename). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempPath(path)
  try {
    await writeFile(temp, text)
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
}
