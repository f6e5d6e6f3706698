import { readSync } from 'node:fs'

/**
 * Reads `length` bytes of the file open at `fd`, from `position`, into `buffer` at `at`, calling `read` until they
 * are all in or the file ends; returns how many it read. Synchronous: callers read files just written, from the page
 * cache, where a promise per read costs more than the read.
 */
export function readAt(fd: number, buffer: Uint8Array, at: number, length: number, position: number): number {
  let read = 0
  while (read < length) {
    const got = readSync(fd, buffer, at + read, length - read, position + read)
    if (got === 0) break
    read += got
  }
  return read
}
