import fc from 'fast-check'
import { expect, test } from 'vitest'
import { canonicalJson } from '../../src/util/canonical-json.ts'

/** The definition the hand-written serializer must match byte for byte (committed hashes depend on it). */
function reference(value: unknown): string {
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item
    const record = item as Record<string, unknown>
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    )
  }) as string | undefined
  return json ?? 'null'
}

const keys = fc.oneof(
  fc.string(),
  fc.constantFrom('0', '1', '9', '10', '01', '-1', '1.5', '4294967294', '4294967295', '__proto__', 'toJSON'),
)
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(keys, tie('value'), { maxKeys: 5 }),
  ),
}))

test('matches JSON.stringify with a key-sorting replacer on any value', () => {
  fc.assert(
    fc.property(values.value, (value) => {
      expect(canonicalJson(value)).toBe(reference(value))
    }),
    { numRuns: 2000 },
  )
})

test('orders array-index keys numerically first, then the rest by code unit', () => {
  expect(canonicalJson({ b: 1, 10: 2, 9: 3, a: 4, '01': 5 })).toBe('{"9":3,"10":2,"01":5,"a":4,"b":1}')
})

test('honours toJSON, drops undefined and functions in objects and nulls them in arrays', () => {
  const value = { when: new Date(0), gone: undefined, fn: () => 1, list: [undefined, () => 1, NaN] }
  expect(canonicalJson(value)).toBe('{"list":[null,null,null],"when":"1970-01-01T00:00:00.000Z"}')
  expect(canonicalJson(undefined)).toBe('null')
})

test('treats boxed primitives as the objects they are and overflows on cycles as the replacer form does', () => {
  const boxed = { s: new String('x'), n: new Number(2) }
  expect(canonicalJson(boxed)).toBe(reference(boxed))
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  expect(() => reference(cyclic)).toThrow(RangeError)
  expect(() => canonicalJson(cyclic)).toThrow(RangeError)
})

/** `value` rebuilt with every object's keys inserted in sorted order: what JSON.stringify can write as it is. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortedCopy(record[key])]),
  )
}

test('matches the reference on values whose keys are already in order, which skip the copy', () => {
  fc.assert(
    fc.property(values.value, (value) => {
      const ordered = sortedCopy(value)
      expect(canonicalJson(ordered)).toBe(reference(ordered))
    }),
    { numRuns: 2000 },
  )
})

test('writes an ordered value containing a toJSON, a class instance or an inherited key as the reference does', () => {
  class Point {
    y = 1
    x = 2
  }
  const list = Object.assign([1, 2], { toJSON: () => 'list' })
  const inherited = Object.create({ z: 1 }) as Record<string, unknown>
  inherited.a = 1
  for (const value of [
    { a: new Point() },
    { a: list },
    { a: inherited },
    { a: { toJSON: () => ({ b: 2, a: 1 }) } },
  ])
    expect(canonicalJson(value)).toBe(reference(value))
})
