/** One row of a dataset file: its values by column, or why it could not be read. */
export type DatasetRow = { line: number; values: Record<string, unknown> } | { line: number; problem: string }

/** A dataset read row by row; `columns` is known once the first row was read (a CSV header, a JSONL object's keys). */
export interface DatasetReader {
  rows: AsyncIterable<DatasetRow>
  /** the CSV header; undefined for JSONL, whose rows may differ in their keys */
  columns(): readonly string[] | undefined
  /** SHA-256 (hex) of the bytes read, once `rows` is done */
  hash(): string
}
