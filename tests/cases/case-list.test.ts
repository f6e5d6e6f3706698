import { describe, expect, test } from 'vitest'
import { hashInput } from '../../src/baselines/hash.ts'
import { CaseList } from '../../src/cases/case-list.ts'
import { caseOf } from '../runner/helpers.ts'

describe('CaseList', () => {
  test("each case's input hash reads back as the hex hashInput gave, every digit of it", () => {
    const cases = Array.from({ length: 300 }, (_, index) =>
      caseOf(`c-${String(index)}`, { input: `question ${String(index)}`, vars: { n: index } }),
    )
    const list = CaseList.of(cases)
    const expected = cases.map((caseDef) => hashInput({ input: caseDef.input, vars: caseDef.vars }))
    // 300 hashes hold every hex digit in every position many times over
    for (let position = 0; position < 16; position++)
      expect(new Set(expected.map((hash) => hash[position])).size).toBe(16)
    expect(cases.map((_, index) => list.inputHash(index))).toEqual(expected)
    // made once, then read again
    expect(list.inputHash(7)).toBe(expected[7])
  })
})
