import { open } from 'node:fs/promises'

/** A line of a file: its text (without the newline) and where its bytes are. */
export interface Line {
  text: string
  offset: number
  bytes: number
}

const NEWLINE = 10
const CHUNK_BYTES = 1 << 20

/** Reads a file line by line without holding more than one chunk and one line in memory. */
export async function* readLines(path: string): AsyncGenerator<Line> {
  for await (const lines of readLineBatches(path)) yield* lines
}

/**
 * `readLines` a chunk (1 MiB) at a time: the lines that end in it, in order, so a reader that parses every line pays
 * one asynchronous step per chunk rather than per line. The chunks are read into one buffer, reused: a buffer per
 * chunk would be garbage the GC frees late (a 10k run's report is 7 MB of them). Each line is decoded on its own,
 * so no string holds on to the buffer; the buffer doubles only for a line longer than it.
 */
export async function* readLineBatches(path: string): AsyncGenerator<Line[]> {
  const file = await open(path, 'r')
  try {
    let buffer: Buffer = Buffer.allocUnsafe(CHUNK_BYTES)
    // bytes [0, carried) of the buffer are the start of a line read before; its file offset is `offset`
    let carried = 0
    let offset = 0
    for (;;) {
      if (carried === buffer.length) buffer = grown(buffer)
      const { bytesRead } = await file.read(buffer, carried, buffer.length - carried, offset + carried)
      if (bytesRead === 0) break
      const data = buffer.subarray(0, carried + bytesRead)
      const lines: Line[] = []
      let start = 0
      for (
        let newline = data.indexOf(NEWLINE, carried);
        newline !== -1;
        newline = data.indexOf(NEWLINE, start)
      ) {
        lines.push({ text: data.toString('utf8', start, newline), offset, bytes: newline - start })
        offset += newline - start + 1
        start = newline + 1
      }
      data.copyWithin(0, start)
      carried = data.length - start
      if (lines.length > 0) yield lines
    }
    if (carried > 0) yield [{ text: buffer.toString('utf8', 0, carried), offset, bytes: carried }]
  } finally {
    await file.close()
  }
}

function grown(buffer: Buffer): Buffer {
  const bigger = Buffer.allocUnsafe(2 * buffer.length)
  buffer.copy(bigger)
  return bigger
}
