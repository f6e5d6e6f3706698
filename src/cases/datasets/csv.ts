import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { CsvError, parse } from 'csv-parse'
import { parse as parseSync } from 'csv-parse/sync'
import type { DatasetReader, DatasetRow } from './rows.ts'

/** Reads a CSV file with a header row, streamed: one record in memory at a time. */
export function readCsv(path: string): DatasetReader {
  const digest = createHash('sha256')
  let header: string[] | undefined
  async function* rows(): AsyncGenerator<DatasetRow> {
    const stream = createReadStream(path)
    stream.on('data', (chunk) => digest.update(chunk))
    const parser = stream.pipe(parse({ ...options, bom: true, info: true, raw: true })) as AsyncIterable<{
      record: string[]
      raw: string
      info: { bytes: number }
    }>
    // the line each record starts on, counted from the raw text: csv-parse counts the line a record ends on
    let lines = 0
    let start = 0
    try {
      for await (const { record, raw, info } of parser) {
        const from = start
        start = info.bytes
        const line = lines + 1 + leadingNewlines(raw)
        lines += newlines(raw)
        if (!header) {
          header = record.map((name) => name.trim())
          continue
        }
        if (record.length !== header.length) {
          const fields = `${String(record.length)} field${record.length === 1 ? '' : 's'}`
          yield {
            line,
            problem: `the row has ${fields} where the header has ${String(header.length)} (${header.join(', ')}); quote a field that holds a comma, and "" a quote inside it`,
          }
          continue
        }
        yield { line, values: valuesOf(header, record), start: from, end: start }
      }
    } catch (error) {
      if (!(error instanceof CsvError)) throw error
      yield {
        line: lines + 1,
        problem: `${error.message.replace(/ (on|at) line \d+$/, '')}; fix the CSV quoting`,
      }
    } finally {
      stream.destroy()
    }
  }
  return {
    rows: rows(),
    columns: () => header,
    hash: () => digest.digest('hex'),
    valuesOf: (bytes) => valuesOf(header ?? [], parseSync(bytes, options)[0] ?? []),
  }
}

const options = { relax_column_count: true, skip_empty_lines: true }

function valuesOf(header: readonly string[], record: readonly string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  header.forEach((name, index) => (values[name] = record[index]))
  return values
}

function newlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

function leadingNewlines(text: string): number {
  let count = 0
  for (const char of text) {
    if (char === '\n') count++
    else if (char !== '\r') break
  }
  return count
}
