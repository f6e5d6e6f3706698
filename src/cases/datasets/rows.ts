/** One row of a dataset file: its values by column and its bytes in the file, or why it could not be read. */
export type DatasetRow =
  | { line: number; values: Record<string, unknown>; start: number; end: number }
  | { line: number; problem: string }

/** A dataset read row by row; `columns` is known once the first row was read (a CSV header, a JSONL object's keys). */
export interface DatasetReader {
  rows: AsyncIterable<DatasetRow>
  /** the CSV header; undefined for JSONL, whose rows may differ in their keys */
  columns(): readonly string[] | undefined
  /** SHA-256 (hex) of the bytes read, once `rows` is done */
  hash(): string
  /** the values of a row read before, from its bytes (`start` to `end`), as `rows` gave them */
  valuesOf(bytes: Buffer): Record<string, unknown>
}
