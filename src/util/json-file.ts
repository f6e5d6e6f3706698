import { openAtomic } from './atomic-file.ts'

/**
 * Writes `value` as JSON to `path` atomically (a temporary file renamed into place), streamed in ~1 MiB pieces.
 * The layout is `JSON.stringify(value, null, 2)`'s, except that a list of flat items (records of primitives and
 * lists of primitives) has one compact item per line: a 100k-case summary stays readable, diffable and small.
 * Any other iterable object (a generator, a lazy list) is written as a list, read once (its `toJSON` not called),
 * each flat item on a line of its own: long lists need never exist in memory.
 */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  const out = await openAtomic(path)
  try {
    // pieces go into the file's reused buffer as they come: joining them first would make megabyte strings, which
    // live in V8's large-object space until a full collection
    const write = (piece: string): void => {
      out.write(piece)
    }
    writeJson(value, '', '', write)
    write('\n')
    await out.commit()
  } catch (error) {
    await out.abort()
    throw error
  }
}

/** The text `writeJsonFile` writes, as one string (small values, tests). */
export function formatJson(value: unknown): string {
  const pieces: string[] = []
  writeJson(value, '', '', (piece) => pieces.push(piece))
  return `${pieces.join('')}\n`
}

type Write = (piece: string) => void

/** Writes `value` through `write` piece by piece: plain calls, no generators, since it runs once per list item. */
function writeJson(value: unknown, indent: string, key: string, write: Write): void {
  if (isStreamed(value)) {
    writeIterable(value, indent, write)
    return
  }
  const plain = toPlain(value, key)
  if (plain === null || typeof plain !== 'object') {
    write(plain === undefined ? 'null' : JSON.stringify(plain))
    return
  }
  const inner = `${indent}  `
  if (Array.isArray(plain)) {
    if (plain.length === 0) {
      write('[]')
      return
    }
    const last = plain.length - 1
    write('[\n')
    if (plain.every(isFlat)) {
      // one piece per item: long lists of records are what this layout is for
      for (const [index, item] of plain.entries())
        write(`${inner}${item === undefined ? 'null' : JSON.stringify(item)}${index < last ? ',\n' : '\n'}`)
    } else {
      for (const [index, item] of plain.entries()) {
        write(inner)
        writeJson(item, inner, String(index), write)
        write(index < last ? ',\n' : '\n')
      }
    }
    write(`${indent}]`)
    return
  }
  // a streamed list is never left out: asking its toJSON would build it whole
  const entries = Object.entries(plain).filter(
    ([, item]) => isStreamed(item) || toPlain(item, '') !== undefined,
  )
  if (entries.length === 0) {
    write('{}')
    return
  }
  write('{\n')
  for (const [index, [name, item]] of entries.entries()) {
    write(`${inner}${JSON.stringify(name)}: `)
    writeJson(item, inner, name, write)
    write(index < entries.length - 1 ? ',\n' : '\n')
  }
  write(`${indent}}`)
}

function writeIterable(items: Iterable<unknown>, indent: string, write: Write): void {
  const inner = `${indent}  `
  let index = 0
  for (const item of items) {
    write(index === 0 ? '[\n' : ',\n')
    write(inner)
    if (isFlat(item)) write(toPlain(item, String(index)) === undefined ? 'null' : JSON.stringify(item))
    else writeJson(item, inner, String(index), write)
    index++
  }
  write(index === 0 ? '[]' : `\n${indent}]`)
}

/** An iterable object other than an array: written as a list as it is read, its `toJSON` (if any) not called. */
function isStreamed(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function'
  )
}

/** What JSON.stringify would serialize for the value: `toJSON` applied; undefined for what it leaves out. */
function toPlain(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as JsonCapable).toJSON === 'function')
    return (value as JsonCapable).toJSON(key)
  if (typeof value === 'function' || typeof value === 'symbol') return undefined
  return value
}

interface JsonCapable {
  toJSON(key: string): unknown
}

/**
 * A primitive, a list of primitives, or a record whose values are those. Loops, not `every`: it runs per item.
 * `Object.values` lists what JSON.stringify writes (own enumerable string keys), in half the time of for…in with
 * an own-key check on a 10k-case summary.
 */
function isFlat(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true
  const items = Array.isArray(value) ? (value as unknown[]) : Object.values(value)
  for (let i = 0; i < items.length; i++) if (!isPrimitiveOrList(items[i])) return false
  return true
}

function isPrimitiveOrList(item: unknown): boolean {
  if (item === null || typeof item !== 'object') return true
  if (!Array.isArray(item)) return false
  for (const element of item) if (element !== null && typeof element === 'object') return false
  return true
}
