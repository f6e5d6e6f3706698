import { createReadStream } from 'node:fs'

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
