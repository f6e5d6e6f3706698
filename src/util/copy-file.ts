import { createHash } from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'
import { openAtomic } from './atomic-file.ts'

const CHUNK_BYTES = 1 << 20

/**
 * Copies `from` to `to` atomically a megabyte at a time and returns the SHA-256 (hex) of the bytes it copied, so
 * a caller can tell whether the copy is the file it read before without holding either in memory.
 */
export async function copyFileHashed(from: string, to: string): Promise<string> {
  const out = await openAtomic(to)
  const digest = createHash('sha256')
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  try {
    const fd = openSync(from, 'r')
    try {
      for (let got = readSync(fd, chunk); got > 0; got = readSync(fd, chunk)) {
        const bytes = chunk.subarray(0, got)
        digest.update(bytes)
        out.write(bytes)
      }
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    await out.abort()
    throw error
  }
  const hash = digest.digest('hex')
  await out.commit()
  return hash
}
