import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { ConfigError, InternalError } from '../../errors.ts'
import { TypedList } from '../../util/typed-list.ts'
import { buildCase } from '../build.ts'
import type { CaseFileHeader } from '../schema.ts'
import type { CaseDefinition } from '../case-definition.ts'
import { rowEntry, type DatasetColumns } from './columns.ts'
import type { DatasetReader } from './rows.ts'

/**
 * Where the rows of a suite's datasets are, so their cases are built again from the file when they run rather than
 * kept: 32 bytes a row.
 */
export class DatasetRows {
  readonly #sources: DatasetFile[] = []
  /** four numbers a row: its index in the case list, its file in `#sources`, its first and past-last byte */
  readonly #rows = new TypedList(Float64Array)

  /** records a file about to be read; returns its slot for `add` */
  addFile(source: Omit<DatasetFile, 'size' | 'mtimeMs'>): number {
    const { size, mtimeMs } = statSync(source.file)
    return this.#sources.push({ ...source, size, mtimeMs }) - 1
  }

  add(index: number, slot: number, row: { start: number; end: number }): void {
    this.#rows.push(index)
    this.#rows.push(slot)
    this.#rows.push(row.start)
    this.#rows.push(row.end)
  }

  /** Builds again the case at `index` of the case list from its row, as it was built when loaded. */
  readonly rebuild = (index: number, line: number): CaseDefinition => {
    const rows = this.#rows.view()
    let low = 0
    let high = rows.length / 4 - 1
    while (low < high) {
      const middle = (low + high) >> 1
      if ((rows[middle * 4] as number) < index) low = middle + 1
      else high = middle
    }
    const at = low * 4
    const source = this.#sources[rows[at + 1] as number]
    if (rows[at] !== index || !source) throw new InternalError(`case ${String(index)} is not a dataset row`)
    const values = source.reader.valuesOf(readBytes(source, rows[at + 2] as number, rows[at + 3] as number))
    const mapped = rowEntry(values, source.columns, source.idPrefix)
    if ('problem' in mapped)
      throw new ConfigError(`${source.file}: a row no longer reads as it did: ${mapped.problem}`)
    return buildCase(mapped.entry, -1, source.header, line, [])
  }
}

/** A dataset file read, with what building its rows again needs. */
interface DatasetFile {
  file: string
  reader: DatasetReader
  columns: DatasetColumns
  idPrefix: string
  header: CaseFileHeader
  /** size and modification time when read: rows are read again only from the same file */
  size: number
  mtimeMs: number
}

function readBytes(source: DatasetFile, start: number, end: number): Buffer {
  const { size, mtimeMs } = statSync(source.file)
  if (size !== source.size || mtimeMs !== source.mtimeMs)
    throw new ConfigError(`${source.file} changed after it was loaded; run again to use the new rows.`)
  const bytes = Buffer.alloc(end - start)
  const fd = openSync(source.file, 'r')
  try {
    readSync(fd, bytes, 0, bytes.length, start)
  } finally {
    closeSync(fd)
  }
  return bytes
}
