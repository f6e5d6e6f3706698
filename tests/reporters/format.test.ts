import { expect, test } from 'vitest'
import { formatCount } from '../../src/util/format-count.ts'

test('formatCount groups thousands exactly as toLocaleString("en-US") does', () => {
  const values = [
    0,
    -0,
    7,
    999,
    1000,
    12_345,
    1_234_567,
    -1234,
    Number.MAX_SAFE_INTEGER,
    1234.5678,
    NaN,
    Infinity,
  ]
  for (const value of values) expect(formatCount(value)).toBe(value.toLocaleString('en-US'))
})
