import { hash } from 'node:crypto'
import type { CaseEntry } from '../schema.ts'

/** The `columns:` map: case field (`input`, `id`, `tags`) or var name → the column holding it. */
export type DatasetColumns = Readonly<Record<string, string>>

const caseFields = ['input', 'id', 'tags'] as const

/** A row as a case entry, or what is wrong with it (a sentence that says how to fix it). */
export type RowEntry = { entry: CaseEntry } | { problem: string }

/**
 * Maps a row to a case: `input`, `id` and `tags` from their columns (the column of the same name unless `columns`
 * says otherwise), every var `columns` names from its column, and every other column into `vars` under its name.
 * `tags` splits on `;`. Without an `id` column the id is `<idPrefix>-` and a hash of the row's values.
 */
export function rowEntry(
  values: Record<string, unknown>,
  columns: DatasetColumns,
  idPrefix: string,
): RowEntry {
  const column = (field: string) => columns[field] ?? field
  const mapped = new Set(Object.values(columns))
  for (const field of caseFields) mapped.add(column(field))
  const vars: Record<string, unknown> = {}
  for (const [field, name] of Object.entries(columns))
    if (!(caseFields as readonly string[]).includes(field) && name in values) vars[field] = values[name]
  for (const name in values) if (!mapped.has(name)) vars[name] = values[name]

  const input = values[column('input')]
  if (input === undefined || input === '')
    return {
      problem: `no \`input\`: the row has no value in column \`${column('input')}\`${hint('input', columns)}`,
    }
  if (typeof input !== 'string')
    return { problem: `\`input\` (column \`${column('input')}\`) must be a string, not ${describe(input)}` }
  const id = values[column('id')] ?? `${idPrefix}-${rowHash(values)}`
  if (typeof id !== 'string' && typeof id !== 'number')
    return { problem: `the id (column \`${column('id')}\`) must be a string or number, not ${describe(id)}` }
  if (id === '')
    return { problem: `empty id in column \`${column('id')}\`; give every row an id, or drop the column` }
  const tags = splitTags(values[column('tags')])
  if (tags === undefined)
    return {
      problem: `tags (column \`${column('tags')}\`) must be a \`;\`-separated string or a list of strings`,
    }
  return {
    entry: { id: String(id), input, vars, tags, weight: 1, skip: false, only: false },
  }
}

/** The columns `columns:` names that the header lacks, as problems. */
export function missingColumns(header: readonly string[], columns: DatasetColumns): string[] {
  const known = header.map((name) => `\`${name}\``).join(', ')
  return Object.entries(columns)
    .filter(([, name]) => !header.includes(name))
    .map(
      ([field, name]) =>
        `\`columns.${field}\` names column \`${name}\`, which the header lacks; its columns are ${known}`,
    )
}

/** 12 hex characters of SHA-256 over the row's columns and values, line endings normalized: stable across machines. */
function rowHash(values: Record<string, unknown>): string {
  const text = JSON.stringify(Object.entries(values)).replaceAll('\\r\\n', '\\n')
  return hash('sha256', text, 'hex').slice(0, 12)
}

function splitTags(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.every((tag) => typeof tag === 'string') ? value : undefined
  if (typeof value !== 'string') return undefined
  return [
    ...new Set(
      value
        .split(';')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ]
}

function hint(field: string, columns: DatasetColumns): string {
  return columns[field] === undefined
    ? `; name the column that holds it with \`columns: { ${field}: <column> }\``
    : ''
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`
}
