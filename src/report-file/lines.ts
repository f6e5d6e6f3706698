import { createReadStream } from 'node:fs'

/** A line of a file: its text (without the newline) and where its bytes are. */
export interface Line {
  text: string
  offset: number
  bytes: number
}

const NEWLINE = 10

/** Reads a file line by line without holding more than one chunk and one line in memory. */
export async function* readLines(path: string): AsyncGenerator<Line> {
  for await (const lines of readLineBatches(path)) yield* lines
}

/**
 * `readLines` a chunk (1 MiB) at a time: the lines that end in it, in order. Each chunk is decoded once, up to its
 * last newline (a newline byte never occurs inside a multi-byte UTF-8 character), and a reader that parses every
 * line pays one asynchronous step per chunk rather than per line.
 */
export async function* readLineBatches(path: string): AsyncGenerator<Line[]> {
  let pending: Buffer | undefined
  let offset = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const data = pending === undefined ? chunk : Buffer.concat([pending, chunk])
    const last = data.lastIndexOf(NEWLINE)
    if (last === -1) {
      pending = data
      continue
    }
    const text = data.toString('utf8', 0, last)
    // all ASCII: a line's bytes are its characters; else its newline byte is found in the bytes too (a newline byte
    // always decodes to a newline, even amid invalid UTF-8, whose bytes the text no longer measures)
    const ascii = text.length === last
    const lines: Line[] = []
    let start = 0
    let byteStart = 0
    for (;;) {
      const newline = text.indexOf('\n', start)
      const end = newline === -1 ? last : ascii ? newline : data.indexOf(NEWLINE, byteStart)
      const bytes = end - byteStart
      lines.push({ text: text.slice(start, newline === -1 ? text.length : newline), offset, bytes })
      offset += bytes + 1
      if (newline === -1) break
      start = newline + 1
      byteStart = end + 1
    }
    yield lines
    pending = last + 1 < data.length ? data.subarray(last + 1) : undefined
  }
  if (pending !== undefined) yield [{ text: pending.toString('utf8'), offset, bytes: pending.length }]
}
