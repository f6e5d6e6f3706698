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
 * `readLines` a chunk (1 MiB) at a time: the lines that end in it, in order, so a reader that parses every line pays
 * one asynchronous step per chunk rather than per line. Each line is decoded on its own: a slice of one string
 * decoded for the whole chunk would keep the chunk alive as long as any string parsed from the line.
 */
export async function* readLineBatches(path: string): AsyncGenerator<Line[]> {
  let pending: Buffer | undefined
  let offset = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const data = pending === undefined ? chunk : Buffer.concat([pending, chunk])
    const lines: Line[] = []
    let start = 0
    for (let newline = data.indexOf(NEWLINE); newline !== -1; newline = data.indexOf(NEWLINE, start)) {
      lines.push({ text: data.toString('utf8', start, newline), offset, bytes: newline - start })
      offset += newline - start + 1
      start = newline + 1
    }
    pending = start < data.length ? data.subarray(start) : undefined
    if (lines.length > 0) yield lines
  }
  if (pending !== undefined) yield [{ text: pending.toString('utf8'), offset, bytes: pending.length }]
}
