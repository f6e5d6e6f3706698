import { describe, expect, test } from 'vitest'
import { isStrictCompatible } from '../../src/providers/json-schema-strict.ts'

const closed = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
})

describe('isStrictCompatible', () => {
  test('accepts closed objects that require every property, however deep', () => {
    const schema = closed({ items: { type: 'array', items: closed({ name: { type: 'string' } }) } })
    expect(isStrictCompatible(schema)).toBe(true)
  })

  test('rejects an object that leaves additional properties open', () => {
    expect(
      isStrictCompatible({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }),
    ).toBe(false)
  })

  test('rejects an optional property, also inside anyOf and $defs', () => {
    const optional = { ...closed({ a: { type: 'string' } }), required: [] }
    expect(isStrictCompatible(optional)).toBe(false)
    expect(isStrictCompatible(closed({ x: { anyOf: [optional, { type: 'null' }] } }))).toBe(false)
    expect(isStrictCompatible({ ...closed({}), $defs: { node: optional } })).toBe(false)
  })
})
