/**
 * JSON with object keys sorted, so equal values always serialize the same way; `undefined` becomes `null`.
 * The output is exactly `JSON.stringify` with a key-sorting replacer (hashes in committed baselines and cassettes
 * depend on it): `toJSON` is honoured, array-index keys come first in numeric order, then the rest by code unit.
 * It is written out by hand because the replacer form copies every object, which shows when hashing 100k cases.
 * A cyclic value overflows the stack (RangeError), as the replacer form does.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, '') ?? 'null'
}

/** deeper values take the general path, which overflows on cycles as the replacer form does */
const MAX_DEPTH = 64

/**
 * Whether JSON.stringify already writes `value` canonically: plain objects and arrays only (no `toJSON`, no class
 * instances or boxed primitives), every object's keys in canonical order. for-in lists array-index keys first, in
 * numeric order, so only the keys after them are compared. An inherited enumerable key can only make it say no.
 */
function inCanonicalOrder(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true
  if (depth > MAX_DEPTH || typeof (value as Partial<Jsonable>).toJSON === 'function') return false
  if (Array.isArray(value)) {
    for (const item of value) if (!inCanonicalOrder(item, depth + 1)) return false
    return true
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return false
  let previous: string | undefined
  for (const key in value) {
    if (previous !== undefined) {
      if (previous >= key) return false
      previous = key
    } else if (!isArrayIndex(key)) previous = key
    if (!inCanonicalOrder((value as Record<string, unknown>)[key], depth + 1)) return false
  }
  return true
}

function serialize(input: unknown, key: string): string | undefined {
  let value = input
  if (typeof value === 'object' && value !== null && typeof (value as Jsonable).toJSON === 'function')
    value = (value as Jsonable).toJSON(key)
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      break
    default:
      // undefined, functions and symbols are left out (`null` in arrays); bigint throws as JSON.stringify does
      return typeof value === 'bigint' ? JSON.stringify(value) : undefined
  }
  if (value === null) return 'null'
  // a part built with its keys in order (results, case definitions) is written by JSON.stringify as it is
  if (inCanonicalOrder(value, 0)) return JSON.stringify(value)
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ','
      out += serialize(value[i], String(i)) ?? 'null'
    }
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  let out = '{'
  let first = true
  for (const name of sortedKeys(record)) {
    const item = serialize(record[name], name)
    if (item === undefined) continue
    out += `${first ? '' : ','}${JSON.stringify(name)}:${item}`
    first = false
  }
  return `${out}}`
}

interface Jsonable {
  toJSON(key: string): unknown
}

/** `Object.keys` lists array-index keys first, ascending; the object a replacer builds keeps them there. */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record)
  let indices = 0
  while (indices < keys.length && isArrayIndex(keys[indices] as string)) indices++
  if (indices === 0) return keys.sort()
  return [...keys.slice(0, indices), ...keys.slice(indices).sort()]
}

function isArrayIndex(key: string): boolean {
  const code = key.charCodeAt(0)
  if (code < 48 || code > 57) return false
  const index = Number(key)
  return Number.isInteger(index) && String(index) === key && index < 2 ** 32 - 1
}
