import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import type { DatasetReader, DatasetRow } from './rows.ts'

/** Reads a JSONL file (one JSON object per line; blank lines skipped), streamed line by line. */
export function readJsonl(path: string): DatasetReader {
  const digest = createHash('sha256')
  async function* rows(): AsyncGenerator<DatasetRow> {
    let line = 0
    let rest = ''
    let start = 0
    const stream = createReadStream(path)
    const decoder = new StringDecoder('utf8')
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        digest.update(chunk)
        const lines = (rest + decoder.write(chunk)).split('\n')
        rest = lines.pop() ?? ''
        for (const text of lines) {
          const end = start + Buffer.byteLength(text) + 1
          yield* row(text, ++line, start, end)
          start = end
        }
      }
      const text = rest + decoder.end()
      yield* row(text, ++line, start, start + Buffer.byteLength(text))
    } finally {
      stream.destroy()
    }
  }
  return {
    rows: rows(),
    columns: () => undefined,
    hash: () => digest.digest('hex'),
    valuesOf: (bytes) => JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>,
  }
}

function* row(text: string, line: number, start: number, end: number): Generator<DatasetRow> {
  const json = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim()
  if (json === '') return
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    yield { line, problem: `not valid JSON: ${(error as Error).message}; write one JSON object per line` }
    return
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    yield { line, problem: 'expected a JSON object such as {"input": "…"}, one per line' }
    return
  }
  yield { line, values: value as Record<string, unknown>, start, end }
}
