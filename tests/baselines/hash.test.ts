import { describe, expect, test } from 'vitest'
import { hashInput } from '../../src/baselines/hash.ts'

describe('hashInput', () => {
  test('is 16 hex characters of the SHA-256 of canonical JSON', () => {
    expect(hashInput({ a: 1, b: ['x', null] })).toBe('18c018603b12c4be')
  })

  test('ignores key order and undefined keys, but not array order', () => {
    expect(hashInput({ b: ['x', null], a: 1, c: undefined })).toBe('18c018603b12c4be')
    expect(hashInput({ a: 1, b: [null, 'x'] })).not.toBe('18c018603b12c4be')
  })
})
