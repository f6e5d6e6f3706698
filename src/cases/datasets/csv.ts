import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { CsvError, parse } from 'csv-parse'
import type { DatasetReader, DatasetRow } from './rows.ts'

/** Reads a CSV file with a header row, streamed: one record in memory at a time. */
export function readCsv(path: string): DatasetReader {
  const digest = createHash('sha256')
  let header: string[] | undefined
  async function* rows(): AsyncGenerator<DatasetRow> {
    const stream = createReadStream(path)
    stream.on('data', (chunk) => digest.update(chunk))
    const parser = stream.pipe(
      parse({ bom: true, raw: true, relax_column_count: true, skip_empty_lines: true }),
    ) as AsyncIterable<{ record: string[]; raw: string }>
    // the line each record starts on, counted from the raw text: csv-parse counts the line a record ends on
    let lines = 0
    try {
      for await (const { record, raw } of parser) {
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
        const values: Record<string, unknown> = {}
        header.forEach((name, index) => (values[name] = record[index]))
        yield { line, values }
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
  return { rows: rows(), columns: () => header, hash: () => digest.digest('hex') }
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
