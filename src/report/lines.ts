import { createReadStream, readSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'

/** A line of a file: its text (without the newline) and where its bytes are. */
export interface Line {
  text: string
  offset: number
  bytes: number
}

/** Reads a file line by line without holding more than one chunk and one line in memory. */
export async function* readLines(path: string): AsyncGenerator<Line> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let offset = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0
    let newline = chunk.indexOf(10, start)
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline)
      const bytes = pendingBytes + piece.length
      const text =
        pendingBytes === 0 ? piece.toString('utf8') : Buffer.concat([...pending, piece]).toString('utf8')
      yield { text, offset, bytes }
      offset += bytes + 1
      pending = []
      pendingBytes = 0
      start = newline + 1
      newline = chunk.indexOf(10, start)
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start))
      pendingBytes += chunk.length - start
    }
  }
  if (pendingBytes > 0) yield { text: Buffer.concat(pending).toString('utf8'), offset, bytes: pendingBytes }
}

/**
 * Calls `onLine` with each line of a file, in order: the buffer holding it, where it starts and ends there (without
 * the newline), and the file offset it starts at. A buffer holds the lines around it too, so a caller can search
 * many lines at once; each read makes a new buffer object, valid only during the calls. Holds one chunk and one
 * line in memory; a sync call per line keeps it cheap.
 */
export async function forEachLine(
  path: string,
  onLine: (buffer: Buffer, start: number, end: number, offset: number) => void,
): Promise<void> {
  const file = await open(path, 'r')
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES)
    // buffer[0, kept) is the start of a line that began at file offset `offset`
    let kept = 0
    let offset = 0
    for (;;) {
      if (kept === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2)
        buffer.copy(bigger, 0, 0, kept)
        buffer = bigger
      }
      const { bytesRead } = await file.read(buffer, kept, buffer.length - kept, offset + kept)
      const bytes = buffer.subarray(0, kept + bytesRead)
      if (bytesRead === 0) {
        if (kept > 0) onLine(bytes, 0, kept, offset)
        return
      }
      let start = 0
      for (let newline = bytes.indexOf(10, kept); newline !== -1; newline = bytes.indexOf(10, start)) {
        onLine(bytes, start, newline, offset + start)
        start = newline + 1
      }
      bytes.copy(buffer, 0, start)
      kept = bytes.length - start
      offset += start
    }
  } finally {
    await file.close()
  }
}

const CHUNK_BYTES = 1 << 20

/** Reads byte ranges of a file. */
export class RangeReader {
  readonly path: string
  readonly #file: FileHandle

  private constructor(path: string, file: FileHandle) {
    this.path = path
    this.#file = file
  }

  static async open(path: string): Promise<RangeReader> {
    return new RangeReader(path, await open(path, 'r'))
  }

  /**
   * Reads `bytes` bytes at `offset` into `buffer` at `at`; returns how many it read (fewer at the end of the file).
   * Synchronous: a report reads a file the run has just written, from the page cache, where a promise per read costs
   * more than the read, and lines in a shuffled order take a read each.
   */
  readInto(buffer: Buffer, at: number, offset: number, bytes: number): number {
    let read = 0
    while (read < bytes) {
      const bytesRead = readSync(this.#file.fd, buffer, at + read, bytes - read, offset + read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    return read
  }

  close(): Promise<void> {
    return this.#file.close()
  }
}
